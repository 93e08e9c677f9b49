// POST /portal/language: the language switcher of every portal page. Remembers the buyer's choice (a cookie:
// locale.server.ts) and goes back to the page it was made on; a language not offered changes nothing.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { checkCsrf } from "../portal/session.server.ts";
import { chooseLanguage } from "../portal/locale.server.ts";
import { readForm } from "../form.server.ts";

/** Back to a portal page only (an absolute URL or another path would make this an open redirect). */
const backTo = (value: FormDataEntryValue | null) => {
  const back = String(value ?? "");
  return /^\/portal(?:[/?#]|$)/.test(back) && !back.startsWith("//") ? back : "/portal";
};

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await checkCsrf(request, form);
  const setCookie = await chooseLanguage(request, String(form.get("language") ?? ""));
  return redirect(backTo(form.get("back")), setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export const loader = () => redirect("/portal");
