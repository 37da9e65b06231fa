/**
 * Revisions this process has seen stored, per stream: the head a read returned or an append wrote. The log is
 * append-only, so a stream that held revision r holds it for ever, and every revision below it; an append that
 * expects r or less need not ask the database whether the stream reached r.
 *
 * Bounded: the least recently told stream is forgotten first, and a forgotten stream is only probed again.
 */
export class KnownRevisions {
  private readonly heads = new Map<string, bigint>();

  constructor(private readonly capacity = 10_000) {}

  /** The stream holds `revision` (and every one below it). */
  tell(streamId: string, revision: bigint): void {
    const known = this.heads.get(streamId);
    this.heads.delete(streamId);
    this.heads.set(streamId, known !== undefined && known > revision ? known : revision);
    if (this.heads.size > this.capacity) this.heads.delete(this.heads.keys().next().value as string);
  }

  /** Whether the stream is known to hold `revision`. */
  holds(streamId: string, revision: bigint): boolean {
    const known = this.heads.get(streamId);
    return known !== undefined && known >= revision;
  }
}
