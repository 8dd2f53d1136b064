<?php

namespace Licensing\Tests;

use Licensing\Exception\SignatureException;
use Licensing\Http\Response;
use Licensing\Idna;
use Licensing\Offline\LicenseFile;
use Licensing\Signing\SignedAnswerVerifier;
use Licensing\Signing\SigningKeys;
use PHPUnit\Framework\TestCase;

/** The client's signed answer verifier against every published test vector (docs/test-vectors/signed-answers). */
final class SignedAnswerVectorsTest extends TestCase
{
    /** @return array<string, array{0: array<string, mixed>}> */
    public function vectors(): array
    {
        $vectors = [];
        foreach ((array) glob(__DIR__ . '/../../../docs/test-vectors/signed-answers/*.json') as $path) {
            $vectors[basename((string) $path)] = [json_decode((string) file_get_contents((string) $path), true)];
        }
        ksort($vectors);
        return $vectors;
    }

    /**
     * @dataProvider vectors
     * @param array{request: array{method: string, path: string, headers: array<string, string>, body: ?string}, response: array{status: int, headers: array<string, string>, body: string}, publicKeys: array<int, array{keyId: string, publicKey: string}>, now: string, expected: string} $vector
     */
    public function testGivesEachVectorItsVerdict(array $vector): void
    {
        $clock = static function () use ($vector): int {
            return (int) LicenseFile::seconds($vector['now']);
        };
        $verifier = new SignedAnswerVerifier(SigningKeys::pinned($vector['publicKeys'], $clock), $clock);
        $request = $vector['request'] + ['url' => 'https://licenses.invalid' . $vector['request']['path'], 'signed' => true];
        try {
            $verifier->verify($request, new Response($vector['response']['status'], $vector['response']['headers'], $vector['response']['body']));
            $outcome = 'valid';
        } catch (SignatureException $e) {
            $outcome = $e->reason();
        }
        $this->assertSame($vector['expected'], $outcome);
    }

    public function testWritesInternationalNamesAsTheServiceDoesWithOrWithoutIntl(): void
    {
        $this->assertSame('xn--bcher-kva.example', Idna::toAscii('Bücher.example'));
        // The encoder used where ext-intl is missing, against names the service (WHATWG URL) writes so.
        $this->assertSame('bcher-kva', Idna::punycode('bücher'));
        $this->assertSame('mnchen-3ya', Idna::punycode('münchen'));
        $this->assertSame('wgv71a119e', Idna::punycode('日本語'));
        $this->assertSame('fa-hia', Idna::punycode('faß'));
    }
}
