/**
 * Load shedding as a plugin: the event-loop delay monitor (overload.ts, decorated as
 * `overload`, which readiness reads) and, when OVERLOAD_MAX_EVENT_LOOP_DELAY_MS is not 0, the
 * step refusing expensive requests while the loop is delayed. Without this plugin readiness
 * never reports overload and nothing is shed.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AdmissionSection } from '../config.js';
import { attachOverloadMonitor, monitorOverload, sheddingStep, type OverloadMonitor } from './overload.js';

declare module 'fastify' {
  interface FastifyInstance {
    overload: OverloadMonitor;
  }
}

async function loadShedding(app: FastifyInstance, { config }: { config: Pick<AdmissionSection, 'maxEventLoopDelayMs'> }): Promise<void> {
  const overload = monitorOverload(config.maxEventLoopDelayMs);
  attachOverloadMonitor(app, overload);
  app.decorate('overload', overload);
  if (overload.enabled) app.requestPath.shedding = sheddingStep(overload);
}

export default fp(loadShedding, { name: 'load-shedding', dependencies: ['request-path'] });
