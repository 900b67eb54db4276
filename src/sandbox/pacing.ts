// Per-token pacing of the exchange (wire-facts §5): at most 2 requests in flight and 300 ms
// between starts, with 20 ms of slack. A request's start is taken when it arrives (the server's
// 'request' event, before its body is read). A busy event loop delivers that event late,
// sometimes by hundreds of milliseconds, which would squeeze the gap between two correctly
// paced requests. For HMAC requests the start is therefore the client's signed
// `lmts-timestamp` (the moment it sent the request) as long as that lies within MAX_LEAD_MS
// before the arrival. Legacy keys carry no timestamp and use the arrival. The check does not
// depend on arrival order: each start must be far enough from every recent start.

/** How far before its arrival a signed timestamp may place a request's start. */
const MAX_LEAD_MS = 2_000;

/** The start of a request for pacing: its arrival, or its signed timestamp when that is plausible. */
export function requestStart(arrivedMs: number, signedTimestamp: string | undefined): number {
  if (signedTimestamp === undefined) return arrivedMs;
  const ts = Date.parse(signedTimestamp);
  if (!Number.isFinite(ts) || ts > arrivedMs || ts < arrivedMs - MAX_LEAD_MS) return arrivedMs;
  return ts;
}

export type Admission = { ok: true; release: () => void } | { ok: false; retryAfterMs: number; reason: string };

/** The limiter: one record of in-flight requests and recent starts per token. */
export class PacingLimiter {
  private readonly keys = new Map<string, { inFlight: number; starts: number[] }>();
  constructor(
    private readonly concurrency = 2,
    private readonly minIntervalMs = 300,
    private readonly toleranceMs = 20,
  ) {}

  /** Admits a request that started at `startMs` (returns a release function) or says how long to wait. */
  admit(key: string, startMs: number): Admission {
    let s = this.keys.get(key);
    if (!s) {
      s = { inFlight: 0, starts: [] };
      this.keys.set(key, s);
    }
    const gap = this.minIntervalMs - this.toleranceMs;
    if (s.inFlight >= this.concurrency) return { ok: false, retryAfterMs: 100, reason: `${s.inFlight} requests already in flight` };
    for (const t of s.starts) {
      if (Math.abs(startMs - t) < gap) {
        return {
          ok: false,
          retryAfterMs: Math.max(t + this.minIntervalMs - startMs, 100),
          reason: `started ${Math.abs(startMs - t)} ms ${startMs >= t ? 'after' : 'before'} another request`,
        };
      }
    }
    s.starts.push(startMs);
    // Starts older than the lead window plus one interval can no longer clash with a new one.
    const newest = Math.max(...s.starts);
    s.starts = s.starts.filter((t) => t > newest - MAX_LEAD_MS - this.minIntervalMs).slice(-16);
    s.inFlight++;
    let done = false;
    const rec = s;
    return {
      ok: true,
      release: () => {
        if (done) return;
        done = true;
        rec.inFlight--;
      },
    };
  }
}
