// npm run ops:invite -- someone@example.com [--role reviewer|admin]: creates the claims team account (or gives an
// existing one this role and makes a disabled one usable again) and prints a sign-in link for the console, good once
// for 15 minutes. The first admin is made this way; admins invite everyone else at /ops/staff. The audit log records
// the change as made by `cli` (the operator's login name beside it).
import os from "node:os";
import { parseArgs } from "node:util";
import pino from "pino";
import {
  createRuntime,
  ensureStaffAccount,
  issueSignInLink,
  loadConfig,
  STAFF_ROLES,
  type StaffRole,
} from "../server/index.ts";

const USAGE = "usage: npm run ops:invite -- <e-mail> [--role reviewer|admin]";

const { values, positionals } = parseArgs({
  options: { role: { type: "string", default: "reviewer" } },
  allowPositionals: true,
});
const role = values.role as StaffRole;
if (positionals.length !== 1 || !STAFF_ROLES.includes(role)) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
const runtime = createRuntime(config, pino({ level: "warn" }, pino.destination(2)));
try {
  const { staff, link } = await runtime.db.transaction(async (tx) => {
    const staff = await ensureStaffAccount(
      tx,
      runtime.services,
      { email: positionals[0], role },
      `npm run ops:invite (${os.userInfo().username})`,
    );
    return { staff, link: await issueSignInLink(tx, runtime.services, staff) };
  });
  console.log(
    `Staff account ${staff.email} (${staff.role}, ${staff.status})\n` +
      `  sign in (once, until ${new Date(link.expiresAt).toISOString()}): ${config.OPS_URL}/sign-in/${link.token}\n` +
      `  later: ${config.OPS_URL}/sign-in e-mails a new link`,
  );
} catch (error) {
  console.error(`ops:invite failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await runtime.close();
}
