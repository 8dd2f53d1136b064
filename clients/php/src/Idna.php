<?php

namespace Licensing;

/**
 * Host names in their ASCII form, as the service (WHATWG URL parsing) writes international names: `Bücher.example` is
 * `xn--bcher-kva.example`. With ext-intl, `idn_to_ascii` (UTS #46); without it, each label lower-cased and encoded
 * with Punycode (RFC 3492) here, which gives the same for the names sites use. A name that also needs Unicode
 * normalization or mapping (rare) may then differ from the service's: answers about it are refused, never accepted
 * wrongly.
 */
final class Idna
{
    private const BASE = 36;
    private const TMIN = 1;
    private const TMAX = 26;
    private const SKEW = 38;
    private const DAMP = 700;

    public static function toAscii(string $host): string
    {
        if (!preg_match('/[^\x00-\x7f]/', $host)) {
            return strtolower($host);
        }
        if (function_exists('idn_to_ascii') && defined('INTL_IDNA_VARIANT_UTS46')) {
            $ascii = idn_to_ascii($host, IDNA_NONTRANSITIONAL_TO_ASCII, INTL_IDNA_VARIANT_UTS46);
            if (is_string($ascii)) {
                return strtolower($ascii);
            }
        }
        $lower = function_exists('mb_strtolower') ? mb_strtolower($host, 'UTF-8') : strtolower($host);
        return implode('.', array_map(static function (string $label): string {
            return preg_match('/[^\x00-\x7f]/', $label) ? 'xn--' . self::punycode($label) : $label;
        }, explode('.', $lower)));
    }

    /** RFC 3492 §6.3: the Punycode of a UTF-8 label (without the `xn--` prefix). */
    public static function punycode(string $label): string
    {
        $points = self::codePoints($label);
        $output = '';
        foreach ($points as $point) {
            if ($point < 0x80) {
                $output .= chr($point);
            }
        }
        $basic = strlen($output);
        $handled = $basic;
        if ($basic > 0) {
            $output .= '-';
        }
        $n = 0x80;
        $delta = 0;
        $bias = 72;
        while ($handled < count($points)) {
            $next = min(array_filter($points, static function (int $point) use ($n): bool {
                return $point >= $n;
            }));
            $delta += ($next - $n) * ($handled + 1);
            $n = $next;
            foreach ($points as $point) {
                if ($point < $n) {
                    $delta++;
                } elseif ($point === $n) {
                    $q = $delta;
                    for ($k = self::BASE; ; $k += self::BASE) {
                        $t = $k <= $bias ? self::TMIN : ($k >= $bias + self::TMAX ? self::TMAX : $k - $bias);
                        if ($q < $t) {
                            break;
                        }
                        $output .= self::digit($t + ($q - $t) % (self::BASE - $t));
                        $q = intdiv($q - $t, self::BASE - $t);
                    }
                    $output .= self::digit($q);
                    $bias = self::adapt($delta, $handled + 1, $handled === $basic);
                    $delta = 0;
                    $handled++;
                }
            }
            $delta++;
            $n++;
        }
        return $output;
    }

    private static function adapt(int $delta, int $points, bool $first): int
    {
        $delta = $first ? intdiv($delta, self::DAMP) : intdiv($delta, 2);
        $delta += intdiv($delta, $points);
        $k = 0;
        while ($delta > intdiv((self::BASE - self::TMIN) * self::TMAX, 2)) {
            $delta = intdiv($delta, self::BASE - self::TMIN);
            $k += self::BASE;
        }
        return $k + intdiv((self::BASE - self::TMIN + 1) * $delta, $delta + self::SKEW);
    }

    private static function digit(int $value): string
    {
        return chr($value < 26 ? 0x61 + $value : 0x16 + $value);
    }

    /** @return int[] The Unicode code points of a UTF-8 string (ext-mbstring may be missing). */
    private static function codePoints(string $text): array
    {
        $points = [];
        foreach ((array) preg_split('//u', $text, -1, PREG_SPLIT_NO_EMPTY) as $char) {
            $bytes = array_values((array) unpack('C*', (string) $char));
            $length = count($bytes);
            $point = $length === 1 ? $bytes[0] : $bytes[0] & (0xff >> ($length + 1));
            for ($i = 1; $i < $length; $i++) {
                $point = ($point << 6) | ($bytes[$i] & 0x3f);
            }
            $points[] = $point;
        }
        return $points;
    }
}
