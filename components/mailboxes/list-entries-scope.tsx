import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type Props = { scope: string; direction: string; mailboxes: Array<{ id: string; address: string }> };

/** Whose lists to show: the project's global lists or one mailbox's. A plain GET form. */
export function ListEntriesScope({ scope, direction, mailboxes }: Props) {
  return (
    <form method="get" action="/mail/lists" className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="direction" value={direction} />
      <div className="grid gap-1.5">
        <Label htmlFor="l-scope" className="text-xs font-normal text-muted-foreground">
          Lists of
        </Label>
        <NativeSelect id="l-scope" name="scope" defaultValue={scope} className="w-72 [&>select]:h-8">
          <option value="global">the whole project (global)</option>
          {mailboxes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.address}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" size="sm" variant="secondary">
        Show
      </Button>
    </form>
  );
}
