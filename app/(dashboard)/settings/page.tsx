import type { Metadata } from "next";
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
import { revokeSessionAction } from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { owner, project, sessionId } = await requireOwner();
  const sessions = await listOwnerSessions(await getDb(), owner.id);

  return (
    <>
      <PageHeader title="Settings" description="This project and your owner account." />
      <div className="grid gap-4">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm">Project</CardTitle>
            <CardDescription>Owner REST calls act on a project named by the X-Brynth-Project header.</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid items-center gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_1fr]">
              <dt className="text-muted-foreground">Name</dt>
              <dd>{project.name}</dd>
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
