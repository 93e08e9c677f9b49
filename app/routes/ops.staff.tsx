// /ops/staff (admins): the claims team's accounts — invite a colleague (they sign in by e-mail link from
// /ops/sign-in), change a role, disable an account (its sessions end at once) or reactivate a disabled one (it signs in
// by a new link). An admin cannot change or disable their own account, so one admin always remains.
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { listStaff, STAFF_ROLES, type StaffCaller } from "../../server/index.ts";
import { asStaffMember, checkOrigin, requireAdmin, runtime } from "../ops/console.server.ts";
import { field, formAction } from "../form-actions.server.ts";
import { ACCOUNT_STATUS_LABELS, ROLE_LABELS } from "../ops/labels.ts";
import { ErrorSummary, Field, Notice, OpsShell, TableRegion } from "../ops/ui.tsx";
import { formatDateTime } from "../ui/format.ts";
import { readForm } from "../form.server.ts";

const NOTICES: Record<string, string> = {
  invited: "Invited. They sign in at /ops/sign-in with their address.",
  role: "The role was changed.",
  disabled: "The account is disabled; its sessions have ended.",
  reactivated: "The account is reactivated. They sign in at /ops/sign-in with their address.",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireAdmin(request);
  return json({
    staff: { id: staff.id, email: staff.email, role: staff.role },
    members: await listStaff(runtime().db, staff),
    roles: STAFF_ROLES,
    notice: NOTICES[new URL(request.url).searchParams.get("notice") ?? ""],
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  checkOrigin(request);
  const form = await readForm(request);
  const intent = field(form, "intent");
  const { staff } = runtime().core;
  const values = Object.fromEntries(["email", "name", "role", "staffId"].map((name) => [name, field(form, name)]));
  // The admin is checked again inside the change's transaction: a demoted or disabled admin changes nothing.
  const asAdmin = <T,>(change: (admin: StaffCaller) => Promise<T>) => asStaffMember(request, context, change);
  if (intent === "invite") {
    const result = await formAction(
      "invite",
      { email: "email", name: "name", role: "role" },
      () => asAdmin((admin) => staff.invite(admin, { email: values.email, name: values.name, role: values.role })),
      values,
    );
    return result.ok ? redirect("/ops/staff?notice=invited") : result.response;
  }
  if (intent === "change_role") {
    const result = await formAction(
      "change_role",
      {},
      () => asAdmin((admin) => staff.changeRole(admin, { staffId: values.staffId, role: field(form, "newRole") })),
      values,
    );
    return result.ok ? redirect("/ops/staff?notice=role") : result.response;
  }
  if (intent === "disable") {
    const result = await formAction(
      "disable",
      {},
      () => asAdmin((admin) => staff.disable(admin, values.staffId)),
      values,
    );
    return result.ok ? redirect("/ops/staff?notice=disabled") : result.response;
  }
  if (intent === "reactivate") {
    const result = await formAction(
      "reactivate",
      {},
      () => asAdmin((admin) => staff.reactivate(admin, values.staffId)),
      values,
    );
    return result.ok ? redirect("/ops/staff?notice=reactivated") : result.response;
  }
  throw new Response("Unknown action.", { status: 400 });
}

export default function StaffPage() {
  const { staff, members, notice, roles } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const inviteErrors = failure?.form === "invite" ? failure.errors : {};
  const typed = (name: string) => (failure?.form === "invite" ? failure.values[name] : undefined);
  return (
    <OpsShell staff={staff}>
      <h1>Staff</h1>
      {notice && !failure ? <Notice>{notice}</Notice> : null}
      <ErrorSummary errors={failure?.errors} formError={failure?.formError} />
      <TableRegion label="Staff accounts">
        <table>
          <caption>Accounts</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const editable = member.id !== staff.id && member.status !== "disabled";
              return (
                <tr key={member.id}>
                  <td>{member.email}</td>
                  <td>{member.name}</td>
                  <td>{ROLE_LABELS[member.role] ?? member.role}</td>
                  <td>{ACCOUNT_STATUS_LABELS[member.status] ?? member.status}</td>
                  <td className="nowrap">{member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "Never"}</td>
                  <td>
                    {editable ? (
                      <div className="inline-form">
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="intent" value="change_role" />
                          <input type="hidden" name="staffId" value={member.id} />
                          <label htmlFor={`role-${member.id}`} className="sr-only">
                            Role of {member.email}
                          </label>
                          <select id={`role-${member.id}`} name="newRole" defaultValue={member.role}>
                            {roles.map((role) => (
                              <option key={role} value={role}>
                                {ROLE_LABELS[role]}
                              </option>
                            ))}
                          </select>
                          <button type="submit" className="button button-quiet">
                            Save role<span className="sr-only"> of {member.email}</span>
                          </button>
                        </Form>
                        <Form method="post">
                          <input type="hidden" name="intent" value="disable" />
                          <input type="hidden" name="staffId" value={member.id} />
                          <button type="submit" className="button button-quiet">
                            Disable<span className="sr-only"> {member.email}</span>
                          </button>
                        </Form>
                      </div>
                    ) : member.id === staff.id ? (
                      <span className="muted">You</span>
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="reactivate" />
                        <input type="hidden" name="staffId" value={member.id} />
                        <button type="submit" className="button button-quiet">
                          Reactivate<span className="sr-only"> {member.email}</span>
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>

      <section className="card narrow" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite a colleague</h2>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="invite" />
          <Field id="email" label="E-mail address" error={inviteErrors.email}>
            {(props) => <input {...props} type="email" autoComplete="off" defaultValue={typed("email")} />}
          </Field>
          <Field id="name" label="Name (optional)" error={inviteErrors.name}>
            {(props) => <input {...props} type="text" autoComplete="off" defaultValue={typed("name")} />}
          </Field>
          <Field
            id="role"
            label="Role"
            hint="Reviewers work the queue; admins also manage staff and read the audit log."
            error={inviteErrors.role}
          >
            {(props) => (
              <select {...props} defaultValue={typed("role") ?? "reviewer"}>
                {roles.map((role) => (
                  <option key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button">
            Invite
          </button>
        </Form>
      </section>
    </OpsShell>
  );
}
