// The claims team's sign-in e-mail: the single-use link to the console (/ops/sign-in/<token>). Sent at once through
// the mail transport (SMTP_URL, or a file in DATA_DIR/mail), not through the buyers' e-mail queue: the link is worth
// something for 15 minutes only and is never stored in clear. No log line carries the link or the address.
import { renderNotice, utcTime, type RenderedNotice } from "./notice.ts";
import type { MailTransport } from "./worker.ts";

/** The transport and From header the runtime's e-mail worker uses. */
export interface Mail {
  transport: MailTransport;
  from: string;
}

export function renderStaffSignInEmail(input: {
  link: string;
  expiresAt: number;
  companyName: string;
}): RenderedNotice {
  return renderNotice(`Sign in to the ${input.companyName} claims console`, [
    "Someone (hopefully you) asked to sign in to the claims console with this address.",
    { label: "Sign in", href: input.link },
    `The link works once, until ${utcTime(input.expiresAt)}. Opening it shows a "Sign in" button: nothing happens until you press it.`,
    "If you did not ask for it, ignore this e-mail: without the link nobody can sign in as you.",
  ]);
}

export async function sendStaffSignInEmail(
  mail: Mail,
  input: { to: string; link: string; expiresAt: number; companyName: string },
): Promise<void> {
  const rendered = renderStaffSignInEmail(input);
  await mail.transport.sendMail({ from: mail.from, to: input.to, ...rendered });
}
