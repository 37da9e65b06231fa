import type { Services } from '../platform/services';
import { createMailer, notificationProcessor, type NotificationJobData } from './notifications';
import { partnerApprovalProcessor } from './partners';
import { fundDeadlineProcessor, startFundDeadlineSweep, type FundDeadlineJobData } from './funds';
import { dealRegistrationProcessor, startDealRegistrationSweep, type DealRegistrationJobData } from './projects';
import { closeQueues, createQueues, createWorker, QUEUES } from '../platform/queues';
import { Reactor } from './reactor';
import { stockProcessor, type StockJobData } from './stock';
import { scheduleTicketSweeps, ticketDeadlineProcessor, type TicketDeadlineJobData } from './tickets';
import { registrationDigestProcessor, type RegistrationDigestJobData } from './registrations';
import { teamProcessor, type TeamJobData } from './team';
import { uploadProcessor, type UploadJobData } from './uploads';
import { leadAcceptanceProcessor, startLeadSweep, type LeadJobData } from './leads';
import { learningProcessor, startLearningSweep, type LearningJobData } from './learning';
import { programmeProcessor, scheduleQuarterlyEvaluation, type ProgrammeJobData } from './programme';
import { startWebhookSweep, webhookProcessor, type WebhookJobData } from './webhooks';

export interface Workers {
  /** Stops the reactor, lets running jobs finish, then closes the workers, the queues and the mail transport. */
  stop(): Promise<void>;
}

/** The worker process: the reactor that turns events into jobs, and the processors of every queue. */
export async function startWorkers(services: Services, options: { log: (line: string) => void }): Promise<Workers> {
  const { config } = services;
  const { log } = options;
  const queues = createQueues(config);
  for (const queue of Object.values(queues)) queue.on('error', (error) => log(`queue ${queue.name}: ${error.message}`));

  const mailer = createMailer(config);
  const workers = [
    createWorker<NotificationJobData>(config, QUEUES.notifications, notificationProcessor(services, mailer)),
    createWorker(config, QUEUES.partnerApprovals, partnerApprovalProcessor(services)),
    createWorker<StockJobData>(config, QUEUES.stockReservations, stockProcessor(services)),
    createWorker<TicketDeadlineJobData>(
      config,
      QUEUES.ticketDeadlines,
      ticketDeadlineProcessor(services, () => queues[QUEUES.ticketDeadlines]),
    ),
    createWorker<DealRegistrationJobData>(config, QUEUES.projectRegistrations, dealRegistrationProcessor(services)),
    createWorker<UploadJobData>(config, QUEUES.uploads, uploadProcessor(services)),
    createWorker<TeamJobData>(config, QUEUES.team, teamProcessor(services, mailer)),
    createWorker<RegistrationDigestJobData>(config, QUEUES.registrationDigests, registrationDigestProcessor(services, queues.notifications)),
    createWorker<LeadJobData>(
      config,
      QUEUES.leadAcceptance,
      leadAcceptanceProcessor(services, () => queues),
    ),
    createWorker<FundDeadlineJobData>(config, QUEUES.fundDeadlines, fundDeadlineProcessor(services)),
    createWorker<LearningJobData>(config, QUEUES.learningDeadlines, learningProcessor(services)),
    createWorker<ProgrammeJobData>(config, QUEUES.programmeEvaluations, programmeProcessor(services), { concurrency: 1 }),
    createWorker<WebhookJobData>(
      config,
      QUEUES.webhooks,
      webhookProcessor(services, () => queues),
    ),
  ];
  for (const worker of workers) {
    worker.on('error', (error) => log(`worker ${worker.name}: ${error.message}`));
    worker.on('failed', (job, error) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const outcome = job.attemptsMade >= attempts ? 'gave up' : 'will retry';
      log(`job ${worker.name}/${job.id} failed (attempt ${job.attemptsMade} of ${attempts}, ${outcome}): ${error.message}`);
    });
  }

  const reactor = new Reactor(services, queues, { onError: (error) => log(`reactor: ${error.message}`) });

  let sweep: { stop(): Promise<void> } | undefined;
  let leadSweep: { stop(): Promise<void> } | undefined;
  let fundSweep: { stop(): Promise<void> } | undefined;
  let learningSweep: { stop(): Promise<void> } | undefined;
  let webhookSweep: { stop(): Promise<void> } | undefined;
  const close = async () => {
    await sweep?.stop();
    await leadSweep?.stop();
    await fundSweep?.stop();
    await learningSweep?.stop();
    await webhookSweep?.stop();
    await reactor.stop();
    await Promise.all(workers.map((worker) => worker.close()));
    await closeQueues(queues);
    mailer?.close();
  };

  try {
    await Promise.all([...workers.map((worker) => worker.waitUntilReady()), ...Object.values(queues).map((queue) => queue.waitUntilReady())]);
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  try {
    await scheduleTicketSweeps(services, queues[QUEUES.ticketDeadlines]);
  } catch (error) {
    log(`ticket deadline sweep: ${(error as Error).message}`);
  }
  try {
    await scheduleQuarterlyEvaluation(queues[QUEUES.programmeEvaluations]);
  } catch (error) {
    log(`programme evaluation schedule: ${(error as Error).message}`);
  }
  reactor.start();
  sweep = startDealRegistrationSweep(services, queues, log);
  leadSweep = startLeadSweep(services, queues, log);
  fundSweep = startFundDeadlineSweep(services, queues, log);
  learningSweep = startLearningSweep(services, queues, log);
  webhookSweep = startWebhookSweep(services, queues, log);
  return { stop: close };
}
