import type { Metadata } from "next";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { RevokeSessionButton } from "@/components/settings/revoke-session-button";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listOwnerSessions } from "@/lib/owners/owner-sessions";
import { RevokeGrantButton } from "@/components/settings/revoke-grant-button";
import { listGrants } from "@/lib/oauth/list-grants";
import { DeleteProjectDialog } from "@/components/settings/delete-project-dialog";
import { PasswordForm } from "@/components/settings/password-form";
import { RenameProjectForm } from "@/components/settings/rename-project-form";
import { ThemePicker } from "@/components/settings/theme-picker";
import { readTheme, THEME_COOKIE } from "@/lib/owners/theme";
import { projectFootprint } from "@/lib/projects/delete-project";
import { cookies } from "next/headers";
import { RemoteAccessForm } from "@/components/settings/remote-access-form";
import { env } from "@/lib/env";
import { loadRemoteAccess } from "@/lib/settings/remote-access";
import { saveRemoteAccessAction } from "./remote-access-actions";
import { changePasswordAction, deleteProjectAction, renameProjectAction, revokeGrantAction, revokeSessionAction, setThemeAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { owner, project, projects, sessionId, actor } = await requireOwner();
  const footprint = await projectFootprint(await getDb(), project.id);
  const theme = readTheme((await cookies()).get(THEME_COOKIE)?.value);
  const sessions = await listOwnerSessions(await getDb(), owner.id);
  const grants = await listGrants(await getDb(), { actor });
  const remote = await loadRemoteAccess();

  return (
    <>
      <PageHeader title="Settings" description="This project and your owner account." />
      <div className="grid grid-cols-1 gap-4">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm">Project</CardTitle>
            <CardDescription>Owner REST calls act on a project named by the X-Brynth-Project header.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <RenameProjectForm key={project.name} name={project.name} renameAction={renameProjectAction} />
            <dl className="grid items-center gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_1fr]">
              <dt className="text-muted-foreground">ID</dt>
              <dd className="flex items-center gap-1 font-mono text-xs">
                {project.id}
                <CopyButton value={project.id} label="Copy project ID" size="icon-xs" />
              </dd>
              <dt className="text-muted-foreground">Owner</dt>
              <dd>{owner.email}</dd>
            </dl>
          </CardContent>
        </Card>

        <Card id="appearance" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="text-sm">Appearance</CardTitle>
            <CardDescription>System follows your device&apos;s light or dark setting. Saved in this browser.</CardDescription>
          </CardHeader>
          <CardContent>
            <ThemePicker theme={theme} setThemeAction={setThemeAction} />
          </CardContent>
        </Card>

        <Card id="password" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="text-sm">Password</CardTitle>
            <CardDescription>Changing it signs out every other browser signed in as {owner.email}; this one stays.</CardDescription>
          </CardHeader>
          <CardContent>
            <PasswordForm changeAction={changePasswordAction} />
          </CardContent>
        </Card>

        <Card id="sessions" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="text-sm">Owner sessions</CardTitle>
            <CardDescription>Browsers signed in as {owner.email}. Revoking one signs it out at once.</CardDescription>
          </CardHeader>
          <CardContent>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Browser</TableHead>
                  <TableHead>IP address</TableHead>
                  <TableHead>Signed in</TableHead>
                  <TableHead>Last seen</TableHead>
                  <TableHead className="w-24">
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {sessions.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell className="max-w-md">
                      <div className="flex items-center gap-2">
                        <span className="truncate" title={s.userAgent ?? undefined}>
                          {describeAgent(s.userAgent)}
                        </span>
                        {s.id === sessionId && <Badge variant="success">This session</Badge>}
                      </div>
                    </TableCell>
                    <TableCell className="font-mono text-xs text-muted-foreground">{s.ip ?? "—"}</TableCell>
                    <TableCell className="text-muted-foreground">
                      <RelativeTime date={s.createdAt} />
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      <RelativeTime date={s.lastSeenAt} />
                    </TableCell>
                    <TableCell className="text-right">
                      <RevokeSessionButton sessionId={s.id} current={s.id === sessionId} revokeAction={revokeSessionAction} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>

        <Card id="connected-apps" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="text-sm">Connected apps</CardTitle>
            <CardDescription>
              MCP clients you approved with OAuth for {project.name}. Their tokens work on /mcp only; revoking one stops it on its next request.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {grants.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No app is connected. An MCP client connects with only the URL (see API keys → Connect with OAuth), and you approve it here in the browser.
              </p>
            ) : (
              <Table aria-label="Connected apps">
                <TableHeader>
                  <TableRow>
                    <TableHead>App</TableHead>
                    <TableHead>Project</TableHead>
                    <TableHead>Scopes</TableHead>
                    <TableHead>Mailbox</TableHead>
                    <TableHead>Approved</TableHead>
                    <TableHead>Last used</TableHead>
                    <TableHead className="w-24">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {grants.map((g) => (
                    <TableRow key={g.id} data-grant-client={g.client_name ?? ""}>
                      <TableCell className="max-w-56">
                        <div className="truncate font-medium">{g.client_name ? <UntrustedText text={g.client_name} /> : "Unnamed app"}</div>
                        <div className="truncate font-mono text-xs text-muted-foreground">{g.redirect_hosts.join(", ")}</div>
                      </TableCell>
                      <TableCell>{g.project_name}</TableCell>
                      <TableCell className="max-w-72">
                        <div className="flex flex-wrap gap-1">
                          {g.scopes.map((s) => (
                            <Badge key={s} variant="secondary" className="font-mono text-[0.7rem]">
                              {s}
                            </Badge>
                          ))}
                        </div>
                      </TableCell>
                      <TableCell className="font-mono text-xs">{g.mailbox_id ? (g.mailbox_address ?? "deleted mailbox") : "All mailboxes"}</TableCell>
                      <TableCell className="text-muted-foreground">
                        <RelativeTime date={new Date(g.created_at)} />
                      </TableCell>
                      <TableCell className="text-muted-foreground">{g.last_used_at ? <RelativeTime date={new Date(g.last_used_at)} /> : "Never"}</TableCell>
                      <TableCell className="text-right">
                        <RevokeGrantButton grantId={g.id} clientName={g.client_name ?? "this app"} revokeAction={revokeGrantAction} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card id="remote-access" className="scroll-mt-20">
          <CardHeader>
            <CardTitle className="text-sm">Remote access</CardTitle>
            <CardDescription>
              For every project: the address in every link Brynth hands out (mails, hooks, downloads, connect commands), the OAuth issuer, and the browser
              origins allowed to call /mcp. Changing the public URL makes connected apps authorize again, and links already sent keep the old address.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <RemoteAccessForm
              publicUrl={remote.saved.publicUrl}
              allowedOrigins={remote.saved.allowedOrigins}
              envPublicUrl={remote.envPublicUrl}
              envOrigins={env().ALLOWED_ORIGINS}
              updatedAt={remote.saved.updatedAt?.toISOString() ?? null}
              saveAction={saveRemoteAccessAction}
            />
          </CardContent>
        </Card>

        <Card id="danger" className="scroll-mt-20 border-destructive/40">
          <CardHeader>
            <CardTitle className="text-sm">Delete project</CardTitle>
            <CardDescription>
              {projects.length === 1
                ? "This is your only project. Create another before deleting this one."
                : `Deletes ${project.name} and everything in it. Your other projects stay.`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <DeleteProjectDialog
              project={{ id: project.id, name: project.name }}
              footprint={footprint}
              onlyProject={projects.length === 1}
              deleteAction={deleteProjectAction}
            />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/** "Chrome on Linux" from a user agent string; the full string is on hover. */
function describeAgent(ua: string | null): string {
  if (!ua) return "Unknown browser";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : /curl\//.test(ua)
            ? "curl"
            : null;
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Mac OS X/.test(ua)
      ? "macOS"
      : /Android/.test(ua)
        ? "Android"
        : /iPhone|iPad/.test(ua)
          ? "iOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  if (!browser) return ua.slice(0, 60);
  return os ? `${browser} on ${os}` : browser;
}
