/**
 * Admission as a plugin: the first step of every request (request-admission.ts: the request id,
 * one Host and one Authorization, refusal while the instance closes) and the lane of expensive
 * requests, which keeps them within the time budget (expensive-requests.ts, REQUEST_BUDGET_MS).
 * Both go into their slots of the request path (request-path.ts), which orders them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AdmissionSection } from '../config.js';
import { expensiveRequestStep } from './expensive-requests.js';
import { createAdmission } from './request-admission.js';

async function admission(app: FastifyInstance, { config }: { config: Pick<AdmissionSection, 'requestBudgetMs'> }): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.requestPath.admission = createAdmission(() => closing);
  app.requestPath.expensive = expensiveRequestStep(config.requestBudgetMs);
}

export default fp(admission, { name: 'admission', dependencies: ['request-path'] });
