// The merchant dashboard's e-mails, sent at once through the mail transport like the claims team's links
// (staff-sign-in.ts), and never logged: the sign-up's confirmation link (/dashboard/sign-up/<token>), and the
// single-use sign-in or invitation link (/dashboard/sign-in/<token>), one per team an address belongs to. Anyone can
// type any address and business name into the sign-up form, so every Subject is a fixed sentence, the confirmation
// carries nothing the caller typed, and the business's name (and an inviter's address) appears in a body only as
// inert text (notice.ts: no link, no markup, one line).
import { inertCallerText, renderNotice, utcTime, type RenderedNotice } from "./notice.ts";
import type { Mail } from "./staff-sign-in.ts";

export const MEMBER_SIGN_UP_SUBJECT = "Confirm your e-mail address to open a merchant dashboard account";
export const MEMBER_SIGN_IN_SUBJECT = "Your sign-in link for the merchant dashboard";
export const MEMBER_INVITATION_SUBJECT = "You are invited to a team on the merchant dashboard";

export function renderMemberSignUpEmail(input: { link: string; expiresAt: number }): RenderedNotice {
  return renderNotice(MEMBER_SIGN_UP_SUBJECT, [
    "Someone (hopefully you) asked to open a Purchase Protection merchant dashboard account with this address.",
    { label: "Confirm and open the account", href: input.link },
    `The link works once, until ${utcTime(input.expiresAt)}. Opening it shows a button: nothing is created until you press it.`,
    "If you did not ask for it, ignore this e-mail: without the link no account is opened.",
  ]);
}

export function renderMemberSignInEmail(input: {
  link: string;
  expiresAt: number;
  merchantName: string;
  invitedBy?: string;
}): RenderedNotice {
  const team = `the ${inertCallerText(input.merchantName)} team`;
  const opening = input.invitedBy
    ? `${inertCallerText(input.invitedBy)} invited you to ${team} on the Purchase Protection dashboard.`
    : `Someone (hopefully you) asked to sign in to ${team} on the Purchase Protection dashboard with this address.`;
  return renderNotice(input.invitedBy ? MEMBER_INVITATION_SUBJECT : MEMBER_SIGN_IN_SUBJECT, [
    opening,
    { label: "Sign in", href: input.link },
    `The link works once, until ${utcTime(input.expiresAt)}. Opening it shows a "Sign in" button: nothing happens until you press it.`,
    "If you did not expect it, ignore this e-mail: without the link nobody can sign in as you.",
  ]);
}

export async function sendMemberSignUpEmail(
  mail: Mail,
  input: { to: string; link: string; expiresAt: number },
): Promise<void> {
  await mail.transport.sendMail({ from: mail.from, to: input.to, ...renderMemberSignUpEmail(input) });
}

export async function sendMemberSignInEmail(
  mail: Mail,
  input: { to: string; link: string; expiresAt: number; merchantName: string; invitedBy?: string },
): Promise<void> {
  await mail.transport.sendMail({ from: mail.from, to: input.to, ...renderMemberSignInEmail(input) });
}
