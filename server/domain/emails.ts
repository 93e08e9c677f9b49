// E-mails to buyers, queued in the transaction of what triggers them (the plan's confirm), sent by the e-mail worker
// (server/email/worker.ts). One row per (template, plan): a replayed or retried confirm never queues a second one.
import { newId } from "./ids.ts";
import type { Actor, Services, Tx } from "./context.ts";

export const EMAIL_TEMPLATES = ["welcome_protected"] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

export async function queueEmail(tx: Tx, services: Services, actor: Actor, input: { template: EmailTemplate; planId: string; recipient: string }): Promise<void> {
  const now = services.clock();
  await tx.run(
    `INSERT INTO email_messages (id, merchant_id, mode, template, plan_id, recipient, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (template, plan_id) DO NOTHING`,
    [newId("msg", now, services.random), actor.merchantId, actor.mode, input.template, input.planId, input.recipient, now, now],
  );
}
