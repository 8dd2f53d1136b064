import { LeaseNotFoundError, type LicensingError } from './errors.js';

/** What a `FloatingLease` needs of the client (a `LicensingClient` is one). */
export interface LeaseApi {
  lease(licenseKey: string, machine: string): Promise<{ leaseId: string; expiresAt: string }>;
  heartbeat(licenseKey: string, leaseId: string): Promise<{ expiresAt: string }>;
  releaseLease(licenseKey: string, leaseId: string): Promise<void>;
}

export type FloatingLeaseOptions = {
  /** How long before the lease's end to heartbeat, as a share of what is left. Default 0.5: at half-time. */
  heartbeatAt?: number;
  /** After a failed heartbeat (network, 5xx), how long until the next try (ms). Default 15 000. */
  retryMs?: number;
  /** The lease was lost (it expired before a heartbeat got through, and no seat was free to take again). */
  onLost?: (error: LicensingError | Error) => void;
  /** The clock (ms since the epoch); default `Date.now`. Timers are the global ones (fake timers replace both). */
  now?: () => number;
};

/**
 * A floating seat held for as long as the app runs: `start()` takes a lease, then heartbeats in the background
 * (at half of what is left, so one lost heartbeat still leaves time for another), takes a new lease if the old one
 * expired meanwhile (a laptop that slept), and `release()` returns the seat. `releaseOnExit()` returns it when the
 * process ends (Node, Bun, Electron's main process: SIGINT, SIGTERM, `beforeExit`; Deno: its signal listeners and
 * `unload`). Timers do not keep a Node process alive.
 */
export class FloatingLease {
  leaseId: string | undefined;
  expiresAt: Date | undefined;
  private timer: unknown;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly api: LeaseApi,
    private readonly licenseKey: string,
    private readonly machine: string,
    private readonly options: FloatingLeaseOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Takes the seat (or renews this machine's live lease); throws `SeatsInUseError` when every seat is leased. */
  async start(): Promise<{ leaseId: string; expiresAt: Date }> {
    this.stopped = false;
    const lease = await this.api.lease(this.licenseKey, this.machine);
    this.held(lease.leaseId, lease.expiresAt);
    return { leaseId: lease.leaseId, expiresAt: this.expiresAt! };
  }

  /** Whether the seat is held now, by this clock. */
  get active(): boolean {
    return !this.stopped && this.expiresAt !== undefined && this.expiresAt.getTime() > this.now();
  }

  /** Stops heartbeating and returns the seat. A lease that had already ended is fine. */
  async release(): Promise<void> {
    this.stopped = true;
    this.cancel();
    const leaseId = this.leaseId;
    this.leaseId = undefined;
    this.expiresAt = undefined;
    if (!leaseId) return;
    await this.api.releaseLease(this.licenseKey, leaseId).catch((error: unknown) => {
      if (!(error instanceof LeaseNotFoundError)) throw error;
    });
  }

  /** Returns the seat when the process ends; returns a function that undoes this. */
  releaseOnExit(): () => void {
    const runtime = globalThis as { process?: NodeProcessLike; Deno?: DenoLike; addEventListener?: (type: string, listener: () => void) => void; removeEventListener?: (type: string, listener: () => void) => void };
    const release = () => this.release().catch(() => undefined);
    if (runtime.Deno) {
      const onSignal = () => void release().finally(() => runtime.Deno!.exit(130));
      const signals = runtime.Deno.build.os === 'windows' ? ['SIGINT'] : ['SIGINT', 'SIGTERM'];
      for (const signal of signals) runtime.Deno.addSignalListener(signal, onSignal);
      runtime.addEventListener?.('unload', release);
      return () => {
        for (const signal of signals) runtime.Deno!.removeSignalListener(signal, onSignal);
        runtime.removeEventListener?.('unload', release);
      };
    }
    const proc = runtime.process;
    if (!proc) return () => undefined;
    const onSignal = (signal: string) => void release().finally(() => proc.kill(proc.pid, signal));
    const onBeforeExit = () => void release();
    // Once: after the release the signal is raised again, and ends the process as it would have.
    proc.once('SIGINT', onSignal);
    proc.once('SIGTERM', onSignal);
    proc.once('beforeExit', onBeforeExit);
    return () => {
      proc.off('SIGINT', onSignal);
      proc.off('SIGTERM', onSignal);
      proc.off('beforeExit', onBeforeExit);
    };
  }

  private held(leaseId: string, expiresAt: string) {
    this.leaseId = leaseId;
    this.expiresAt = new Date(expiresAt);
    const left = this.expiresAt.getTime() - this.now();
    this.schedule(Math.max(1000, left * (this.options.heartbeatAt ?? 0.5)));
  }

  private schedule(ms: number) {
    this.cancel();
    if (this.stopped) return;
    this.timer = unrefTimer(() => void this.beat(), ms);
  }

  private cancel() {
    if (this.timer === undefined) return;
    clearTimeout(this.timer as ReturnType<typeof setTimeout>);
    this.timer = undefined;
  }

  private async beat() {
    this.timer = undefined;
    if (this.stopped || !this.leaseId) return;
    try {
      const { expiresAt } = await this.api.heartbeat(this.licenseKey, this.leaseId);
      if (!this.stopped) this.held(this.leaseId!, expiresAt);
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof LeaseNotFoundError) {
        // Expired before this heartbeat (the machine slept, the network was down): take a seat again if one is free.
        try {
          const lease = await this.api.lease(this.licenseKey, this.machine);
          if (!this.stopped) this.held(lease.leaseId, lease.expiresAt);
        } catch (again) {
          this.leaseId = undefined;
          this.expiresAt = undefined;
          this.options.onLost?.(again as Error);
        }
        return;
      }
      // A passing failure: try again soon, while the lease still runs.
      this.schedule(this.options.retryMs ?? 15_000);
    }
  }
}

function unrefTimer(run: () => void, ms: number): unknown {
  const timer = setTimeout(run, ms) as unknown as { unref?: () => void };
  timer.unref?.();
  return timer;
}

type NodeProcessLike = {
  pid: number;
  kill(pid: number, signal: string): void;
  once(event: string, listener: (signal: string) => void): void;
  off(event: string, listener: (signal: string) => void): void;
};
type DenoLike = {
  build: { os: string };
  exit(code: number): never;
  addSignalListener(signal: string, listener: () => void): void;
  removeSignalListener(signal: string, listener: () => void): void;
};
