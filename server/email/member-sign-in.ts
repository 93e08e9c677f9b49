// The merchant dashboard's sign-in and invitation e-mails: the single-use link to /dashboard/sign-in/<token>, naming
// the business (an address may be in several teams: one e-mail per team). Sent at once through the mail transport,
// like the claims team's links (staff-sign-in.ts), and never logged.
import { renderEmail, utcTime, type RenderedEmail } from "./layout.ts";
import type { Mail } from "./staff-sign-in.ts";

export function renderMemberSignInEmail(input: {
  link: string;
  expiresAt: number;
  merchantName: string;
  invitedBy?: string;
}): RenderedEmail {
  const opening = input.invitedBy
    ? `${input.invitedBy} invited you to the ${input.merchantName} team on the Purchase Protection dashboard.`
    : `Someone (hopefully you) asked to sign in to the ${input.merchantName} dashboard with this address.`;
  return renderEmail(`Sign in to the ${input.merchantName} dashboard`, [
    opening,
    { label: "Sign in", href: input.link },
    `The link works once, until ${utcTime(input.expiresAt)}. Opening it shows a "Sign in" button: nothing happens until you press it.`,
    "If you did not expect it, ignore this e-mail: without the link nobody can sign in as you.",
  ]);
}

export async function sendMemberSignInEmail(
  mail: Mail,
  input: { to: string; link: string; expiresAt: number; merchantName: string; invitedBy?: string },
): Promise<void> {
  await mail.transport.sendMail({ from: mail.from, to: input.to, ...renderMemberSignInEmail(input) });
}
