import { PublicFrame } from "@/components/shell/public-frame";

/** Sign-in and setup: a narrow column. */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return <PublicFrame width="sm">{children}</PublicFrame>;
}
