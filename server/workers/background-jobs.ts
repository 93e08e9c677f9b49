// The server's background workers — webhook deliveries, e-mails, purges — as the API process embeds them
// (createProtectionApi().startBackgroundJobs()) and `npm run worker` runs them on their own (any set of them).
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import type { Services } from "../domain/context.ts";
import type { Sealer } from "../secrets/sealer.ts";
import { sealClearBuyerEmails } from "../domain/buyer-emails.ts";
import { createWebhookWorker, type WebhookWorkerOptions } from "../webhooks/worker.ts";
import { createEmailWorker, type MailTransport } from "../email/worker.ts";
import { createActionDigestWorker } from "../email/action-digest.ts";
import { coverageLinks } from "../email/coverage-link.ts";
import { workerGroup } from "./worker.ts";
import { createPeriodicJob, periodicJobsPlan, type PeriodicJobStance } from "./periodic-jobs.ts";
import { PERIODIC_JOBS_INTERVAL_MS, type PeriodicJobName } from "./periodic-jobs-setting.ts";
import type { PeriodicJobRole } from "../store/periodic-jobs.ts";
import { purgeExpired } from "./purges.ts";
import { closeEndedPeriods, findLateEntries, findStatementMismatches } from "../domain/settlements.ts";

/** The names `npm run worker -- --only` takes. */
export const SERVER_WORKERS = ["webhooks", "email", "purges", "settlements"] as const;
export type ServerWorkerName = (typeof SERVER_WORKERS)[number];

export interface BackgroundJobsOptions {
  db: Database;
  services: Services;
  encryptionKey: Buffer;
  sealer: Sealer;
  logger: Logger;
  /** `enabled: false` (WEBHOOK_WORKER=off) when the deliveries run in another process. */
  webhooks?: Partial<Omit<WebhookWorkerOptions, "db" | "sealer" | "logger">> & { enabled?: boolean };
  /**
   * The e-mail worker's transport and From; unset: queued e-mails wait for a process that has them. With
   * `dashboardUrl` (DASHBOARD_URL) the same process composes and sends the team's digests of what needs them, a round
   * every `digestPollMs`.
   */
  email?: {
    transport: MailTransport;
    from: string;
    enabled?: boolean;
    pollMs?: number;
    dashboardUrl?: string;
    digestPollMs?: number;
  };
  /**
   * The periodic jobs, the purges (server/workers/purges.ts) and the settlement statements of ended periods
   * (server/domain/settlements.ts), on the schedule they share with other processes (server/workers/periodic-jobs.ts).
   * Default: an API process's under PERIODIC_JOBS=auto, every PERIODIC_JOBS_INTERVAL_MS.
   */
  periodic?: { plan: ReadonlyMap<PeriodicJobName, PeriodicJobStance>; role: PeriodicJobRole; intervalMs?: number };
}

/**
 * A settlements round: closes the ended periods, then logs what an operator must see. A closed statement that
 * disagrees with its bound entries is an error (checked after a round that closed any: it reads every bound entry);
 * entries written into closed periods after they closed, waiting for the next statement, a warning each round.
 */
export async function closeAndCheckSettlements(db: Database, services: Services, logger: Logger): Promise<number> {
  const written = await closeEndedPeriods(db, services);
  if (written > 0)
    for (const mismatch of await findStatementMismatches(db))
      logger.error({ statement: mismatch }, "settlement statement disagrees with its ledger entries");
  const late = await findLateEntries(db);
  if (late.length > 0)
    logger.warn(
      { count: late.length, entries: late.slice(0, 20) },
      "ledger entries written into closed settlement periods: they go onto the next statement",
    );
  return written;
}

export function createBackgroundJobs(options: BackgroundJobsOptions) {
  const { db, services, sealer, logger } = options;
  const { enabled: webhooksEnabled = true, ...webhookOptions } = options.webhooks ?? {};
  const webhooks = createWebhookWorker({
    clock: services.clock,
    random: services.random,
    resolveHost: services.resolveHost,
    allowPrivateWebhookUrls: services.settings.allowPrivateWebhookUrls,
    ...webhookOptions,
    db,
    sealer,
    logger,
  });
  const email =
    options.email &&
    createEmailWorker({
      db,
      services,
      logger,
      transport: options.email.transport,
      from: options.email.from,
      links: coverageLinks(options.encryptionKey),
      sealer,
      pollMs: options.email.pollMs,
    });
  const digests =
    options.email?.dashboardUrl === undefined
      ? undefined
      : createActionDigestWorker({
          db,
          services,
          logger,
          transport: options.email.transport,
          from: options.email.from,
          dashboardUrl: options.email.dashboardUrl,
          pollMs: options.email.digestPollMs,
        });
  const {
    plan,
    role,
    intervalMs = PERIODIC_JOBS_INTERVAL_MS,
  } = options.periodic ?? {
    plan: periodicJobsPlan("auto", "api"),
    role: "api",
  };
  const periodicJob = (name: PeriodicJobName, task: () => Promise<number>) =>
    createPeriodicJob({
      name,
      stance: plan.get(name) ?? "prompt",
      role,
      intervalMs,
      db,
      clock: services.clock,
      logger,
      task,
    });
  const purges = periodicJob("purges", () => purgeExpired(db, services));
  const settlements = periodicJob("settlements", () => closeAndCheckSettlements(db, services, logger));
  const started = workerGroup([
    ...(webhooksEnabled ? [webhooks] : []),
    ...(plan.has("purges") ? [purges] : []),
    ...(plan.has("settlements") ? [settlements] : []),
    ...(digests && options.email?.enabled !== false ? [digests] : []),
  ]);
  const emailEnabled = options.email?.enabled !== false;
  let sealingClearEmails: Promise<void> | undefined;
  let stopping = false;

  return {
    webhooks,
    email,
    digests,
    purges,
    settlements,
    start() {
      started.start();
      // Addresses stored before they were sealed are sealed first, so the e-mail worker never reads one in clear.
      sealingClearEmails = sealClearBuyerEmails(db, sealer)
        .then(
          (count) => void (count > 0 && logger.info({ count }, "sealed the buyer e-mail addresses stored in clear")),
          (error) => logger.error({ err: error }, "sealing the buyer e-mail addresses stored in clear failed"),
        )
        .then(() => void (!stopping && emailEnabled && email?.start()));
    },
    /** Resolves when in-flight webhook deliveries, e-mail sends and purges have finished or been released. */
    async stop(graceMs?: number) {
      stopping = true;
      await sealingClearEmails;
      await Promise.all([started.stop(graceMs), email?.stop(graceMs)]);
    },
  };
}

export type BackgroundJobs = ReturnType<typeof createBackgroundJobs>;
