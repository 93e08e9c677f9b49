// The team's e-mail of what needs the merchant (docs/dashboard.md "Needs your action"), batched: each active member who wants it
// (their own choice; owners by default) gets at most one digest per DIGEST_INTERVAL_MS, and only when an item they were
// not told about yet has appeared: two claims approved within the hour make one e-mail, nothing new makes none. A
// digest is composed in one transaction with its items recorded as told (member_action_notices), so an item is told
// once; the digest worker (server/email/action-digest.ts) sends it, with retries. The mode is the merchant's live data
// once it went live, its test data before. Go-live steps are on the overview only: they are not news.
import type { Services } from "./context.ts";
import type { Mode } from "../vocabulary/ids.ts";
import { newId } from "./ids.ts";
import { DomainError } from "./errors.ts";
import { DIGEST_ACTION_LIMIT, merchantActions, type ActionKind, type MerchantActions } from "./merchant-actions.ts";
import type { Database, Queryable } from "../store/database.ts";
import {
  findMemberActionEmails,
  insertActionDigest,
  listDigestRecipients,
  listMembersWantingActionEmails,
  listToldItemKeys,
  lockDigestRecipient,
  setMemberActionEmails,
} from "../store/merchant-actions.ts";

/** At most one digest per member in this long. */
export const DIGEST_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** Members looked at per query (the round pages through them all). */
const RECIPIENT_PAGE = 200;

/** What a digest says: the new items, and how many of each kind stand in all. */
export interface DigestContent {
  mode: Mode;
  newItems: { kind: ActionKind; brief: string }[];
  open: { kind: ActionKind; count: number }[];
}

/**
 * Queues a digest for each member due one (wants them, none within DIGEST_INTERVAL_MS) who has items not told yet.
 * Resolves with how many were queued.
 */
export async function composeActionDigests(db: Database, services: Services): Promise<number> {
  const now = services.clock();
  const since = now - DIGEST_INTERVAL_MS;
  const byMerchant = new Map<string, Promise<MerchantActions>>();
  let queued = 0;
  let after = "";
  for (;;) {
    const recipients = await listDigestRecipients(db, since, RECIPIENT_PAGE, after);
    for (const recipient of recipients) {
      const mode: Mode = recipient.merchantLive ? "live" : "test";
      const key = `${recipient.merchantId}:${mode}`;
      if (!byMerchant.has(key))
        byMerchant.set(
          key,
          merchantActions(
            db,
            services,
            { merchantId: recipient.merchantId, mode },
            {
              limit: DIGEST_ACTION_LIMIT,
              goLive: false,
            },
          ),
        );
      const actions = await byMerchant.get(key)!;
      if (actions.total === 0) continue;
      const made = await db.transaction(async (tx) => {
        // Another worker may have queued this member's digest since the list was read.
        if (!(await lockDigestRecipient(tx, recipient.memberId, since))) return false;
        const items = actions.groups.flatMap((group) => group.items.map((item) => ({ ...item, kind: group.kind })));
        const told = await listToldItemKeys(
          tx,
          recipient.memberId,
          items.map((item) => item.key),
        );
        const fresh = items.filter((item) => !told.has(item.key));
        if (fresh.length === 0) return false;
        const content: DigestContent = {
          mode,
          newItems: fresh.map((item) => ({ kind: item.kind, brief: item.brief })),
          open: actions.groups.map((group) => ({ kind: group.kind, count: group.count })),
        };
        await insertActionDigest(tx, {
          id: newId("dig", now, services.random),
          merchantId: recipient.merchantId,
          memberId: recipient.memberId,
          mode,
          items: JSON.stringify(content),
          itemKeys: fresh.map((item) => item.key),
          createdAt: now,
        });
        return true;
      });
      if (made) queued += 1;
    }
    if (recipients.length < RECIPIENT_PAGE) return queued;
    after = recipients[recipients.length - 1].memberId;
  }
}

/** Whether the member gets the digests (their own choice, else their role's default). */
export async function memberWantsActionEmails(
  db: Queryable,
  member: { merchantId: string; id: string },
): Promise<boolean> {
  return (await findMemberActionEmails(db, member.merchantId, member.id)) ?? false;
}

/** Which of the merchant's members want the e-mails (the Team page shows it; each member chooses for themselves). */
export function teamActionEmails(db: Queryable, merchantId: string): Promise<string[]> {
  return listMembersWantingActionEmails(db, merchantId);
}

/** The member's own choice, from the overview's checkbox ("on" when ticked; absent when not). */
export async function chooseActionEmails(
  db: Queryable,
  services: Services,
  member: { merchantId: string; id: string },
  input: { wanted: unknown },
): Promise<boolean> {
  if (input.wanted !== "on" && input.wanted !== "off")
    throw new DomainError("invalid", "parameter_invalid", "Choose whether to get the e-mails.", "actionEmails");
  const wanted = input.wanted === "on";
  await setMemberActionEmails(db, member.merchantId, member.id, wanted, services.clock());
  return wanted;
}
