<?php

namespace Licensing\Exception;

/**
 * Every error of the client. `errorCode()` is a stable name of the answer (`expired`, `seat_limit`, `network`, …);
 * `status()` the HTTP status when there was an answer.
 */
class LicensingException extends \RuntimeException
{
    /** @var string */
    private $errorCode;
    /** @var int|null */
    private $status;
    /** @var mixed */
    private $body;
    /** @var array<int, array{path: string, message: string}> */
    private $details;

    /**
     * @param mixed $body
     * @param array<int, array{path: string, message: string}> $details
     */
    public function __construct(string $errorCode, string $message, ?int $status = null, $body = null, array $details = [], ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
        $this->errorCode = $errorCode;
        $this->status = $status;
        $this->body = $body;
        $this->details = $details;
    }

    public function errorCode(): string
    {
        return $this->errorCode;
    }

    public function status(): ?int
    {
        return $this->status;
    }

    /** @return mixed The parsed body of the answer, when there was one. */
    public function body()
    {
        return $this->body;
    }

    /** @return array<int, array{path: string, message: string}> Per-field problems of a 400. */
    public function details(): array
    {
        return $this->details;
    }
}
