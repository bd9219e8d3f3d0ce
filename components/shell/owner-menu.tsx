"use client";

import * as React from "react";
import Link from "next/link";
import { LogOut, MonitorSmartphone } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

type OwnerMenuProps = {
  email: string;
  name?: string | null;
  /** Adds a "Sessions" item linking here. */
  sessionsHref?: string;
  /** Adds a "Sign out" item that submits this (server) action. */
  signOutAction?: (formData: FormData) => void | Promise<void>;
  /** Extra DropdownMenuItems, shown above Sign out. */
  children?: React.ReactNode;
};

function initials(name: string | null | undefined, email: string): string {
  const parts = (name?.trim() || email).split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (name ? (parts[1]?.[0] ?? "") : "")).toUpperCase() || "?";
}

function OwnerMenu({ email, name, sessionsHref, signOutAction, children }: OwnerMenuProps) {
  const signOutForm = React.useRef<HTMLFormElement>(null);

  return (
    <>
      {/* Outside the menu: the menu unmounts its items on select, which could cancel a submit from inside it. */}
      {signOutAction && <form ref={signOutForm} action={signOutAction} hidden />}
      <DropdownMenu>
        <DropdownMenuTrigger
          aria-label="Owner menu"
          className="flex size-8 items-center justify-center rounded-full border bg-muted text-xs font-medium outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          {initials(name, email)}
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel className="grid gap-0.5 font-normal">
            {name && <span className="truncate font-medium">{name}</span>}
            <span className="truncate text-xs text-muted-foreground">{email}</span>
          </DropdownMenuLabel>
          {(sessionsHref || children || signOutAction) && <DropdownMenuSeparator />}
          {sessionsHref && (
            <DropdownMenuItem asChild>
              <Link href={sessionsHref}>
                <MonitorSmartphone />
                Sessions
              </Link>
            </DropdownMenuItem>
          )}
          {children}
          {signOutAction && (
            <DropdownMenuItem onSelect={() => signOutForm.current?.requestSubmit()}>
              <LogOut />
              Sign out
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}

export { OwnerMenu, type OwnerMenuProps };
