<?php

namespace Licensing\Http;

/** An HTTP answer exactly as received. */
final class Response
{
    /** @var int */
    public $status;
    /** @var array<string, string> Header names lower-cased; repeated headers joined with ", ". */
    public $headers;
    /** @var string The raw body. */
    public $body;

    /** @param array<string, string> $headers */
    public function __construct(int $status, array $headers, string $body)
    {
        $this->status = $status;
        $this->headers = $headers;
        $this->body = $body;
    }

    public function header(string $name): ?string
    {
        $name = strtolower($name);
        return isset($this->headers[$name]) ? $this->headers[$name] : null;
    }
}
