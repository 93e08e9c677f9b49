// What every dashboard page component reads from its shell's layout: where the pages live (/dashboard or /app), the
// viewer's role and mode, and the CSRF token every standalone form carries (the embedded shell's forms are
// authenticated by Shopify's session token instead, and carry none).
import { createContext, useContext, type ReactNode } from "react";
import { Form, type FormProps } from "@remix-run/react";
import type { Mode } from "../../server/index.ts";
import { canChange, canView, DASHBOARD_PAGES, type DashboardPage, type MemberRole } from "./access.ts";
import type { Shell } from "./viewer.ts";

export interface DashboardShell {
  shell: Shell;
  /** "/dashboard" or "/app". */
  basePath: string;
  merchantName: string;
  mode: Mode;
  live: boolean;
  role: MemberRole;
  /** Standalone: the session's CSRF token; embedded: "". */
  csrfToken: string;
}

export const CSRF_FIELD = "csrf";

const ShellContext = createContext<DashboardShell | null>(null);

export function DashboardShellProvider({ value, children }: { value: DashboardShell; children: ReactNode }) {
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

export function useDashboardShell(): DashboardShell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error("a dashboard page rendered outside its shell");
  return shell;
}

/** The URL of a dashboard page in the current shell (`sub` appended: an id, a query). */
export function useDashboardHref(): (page: DashboardPage, sub?: string) => string {
  const { basePath } = useDashboardShell();
  return (page, sub = "") => {
    const path = DASHBOARD_PAGES[page].path;
    return `${basePath}${path ? `/${path}` : ""}${sub}`;
  };
}

/** Whether the viewer may view / change a page (hide what they cannot do; the server refuses it anyway). */
export function useAccess() {
  const { role } = useDashboardShell();
  return {
    canView: (page: DashboardPage) => canView(role, page),
    canChange: (page: DashboardPage) => canChange(role, page),
  };
}

/** A Remix form with the CSRF field the standalone shell checks on every POST. */
export function DashboardForm({ children, ...props }: FormProps) {
  const { csrfToken } = useDashboardShell();
  return (
    <Form method="post" {...props}>
      {csrfToken && <input type="hidden" name={CSRF_FIELD} value={csrfToken} />}
      {children}
    </Form>
  );
}
