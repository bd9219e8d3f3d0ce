import { DashboardShell } from "@/components/shell/dashboard-shell";
import { OwnerMenu } from "@/components/shell/owner-menu";
import { ProjectSwitcher } from "@/components/dashboard/project-switcher";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { touchOwnerSession } from "@/lib/owners/touch-owner-session";
import { countPendingRequests } from "@/lib/approvals/list-requests";
import { ApprovalsLive } from "@/components/approvals/approvals-live";
import { PageProject } from "@/components/shell/page-project";
import { countDraftsAwaitingApproval } from "@/lib/mail/drafts/owner-list-drafts";
import { createProjectAction, signOutAction, switchProjectAction } from "./actions";
import { navItems } from "./nav";

/**
 * Every dashboard page also calls requireOwner() itself: Next keeps layouts across client navigations, so a
 * check here alone would not run on every page.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requireOwner();
  const db = await getDb();
  // Independent of each other, so sent together: one round trip of waiting instead of three on a busy database.
  const [, pendingApprovals, heldDrafts] = await Promise.all([
    touchOwnerSession(db, ctx.sessionId).catch(() => {}),
    countPendingRequests(db, ctx.project.id).catch(() => 0),
    // Drafts held for approval are approvals too; Mailboxes shows how many, since its Drafts tab is where they are.
    countDraftsAwaitingApproval(db, ctx.project.id).catch(() => 0),
  ]);
  const badges: Record<string, number> = { "/approvals": pendingApprovals, "/mail": heldDrafts };
  return (
    <DashboardShell
      navItems={navItems.map((item) => (item.href in badges ? { ...item, badge: badges[item.href] } : item))}
      projectSwitcher={
        <ProjectSwitcher
          projects={ctx.projects.map((p) => ({ id: p.id, name: p.name }))}
          currentId={ctx.project.id}
          switchAction={switchProjectAction}
          createAction={createProjectAction}
        />
      }
      ownerMenu={<OwnerMenu email={ctx.owner.email} sessionsHref="/settings#sessions" signOutAction={signOutAction} />}
    >
      {children}
      <PageProject projectId={ctx.project.id} />
      <ApprovalsLive quiet delayMs={1000} skipUnder="/approvals" />
    </DashboardShell>
  );
}
