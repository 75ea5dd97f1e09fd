/**
 * One leader across every process sharing a store, for work that must run once
 * at a time (the NATS relay). A leader that dies loses its leadership by itself
 * (its PostgreSQL session ends, or its SQLite lease expires), so another process
 * takes over at its next try.
 */
export interface Leadership {
  /** Becomes the leader, or stays it; false while another process leads. Call it periodically. */
  tryAcquire(): Promise<boolean>;
  /** Whether this process still leads (false once its lock or lease is lost). */
  isLeader(): boolean;
  /** Gives leadership up at once. */
  release(): Promise<void>;
}
