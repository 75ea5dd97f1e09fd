/** Timing of a seeding run, shared by the SQLite and PostgreSQL seeders: wall time per phase and CPU of this process. */

export interface SeedResult {
  users: number;
  seconds: number;
  usersPerSecond: number;
  /** CPU seconds of this process (for PostgreSQL, the client side only). */
  cpuSeconds: number;
  /** Seconds per phase, in order. */
  phases: Record<string, number>;
}

export function startSeedClock() {
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const phases: Record<string, number> = {};
  let mark = started;
  return {
    /** Ends the phase running since the previous call (or the start). */
    phase(name: string): void {
      const now = process.hrtime.bigint();
      phases[name] = Number(now - mark) / 1e9;
      mark = now;
    },
    result(users: number): SeedResult {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      return { users, seconds, usersPerSecond: users / seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, phases };
    },
  };
}
