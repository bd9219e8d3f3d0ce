"use client";

import * as React from "react";
import { usePathname, useRouter } from "next/navigation";
import { toast } from "sonner";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { NewProjectDialog } from "@/components/dashboard/new-project-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type ProjectSwitcherProps = {
  projects: { id: string; name: string }[];
  currentId: string;
  switchAction: (input: { projectId: string }) => Promise<ActionResult<{ id: string }>>;
  createAction: (input: { name: string }) => Promise<ActionResult<{ id: string; name: string }>>;
};

export function ProjectSwitcher({ projects, currentId, switchAction, createAction }: ProjectSwitcherProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = React.useTransition();

  function onSwitch(projectId: string) {
    if (projectId === currentId) return;
    startTransition(async () => {
      const res = await switchAction({ projectId });
      if (!res.ok) return void toast.error(res.error);
      // Deeper pages (an entry, a file) belong to the old project: go to the same screen's top.
      const section = `/${pathname.split("/")[1] ?? ""}`;
      if (section !== pathname) router.push(section);
      router.refresh();
    });
  }

  return (
    <div className="flex w-full items-center gap-1.5">
      <Select value={currentId} onValueChange={onSwitch} disabled={pending}>
        <SelectTrigger aria-label="Project" size="sm" className="min-w-0 flex-1 font-medium">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {projects.map((p) => (
            <SelectItem key={p.id} value={p.id}>
              {p.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <NewProjectDialog createAction={createAction} />
    </div>
  );
}
