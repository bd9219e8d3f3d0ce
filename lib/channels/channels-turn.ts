/**
 * The turn a project's channel changes take (takeTurn: channel_add's cap and duplicate checks, channel_remove's move
 * of pending requests to the owner) and a new request shares (shareTurn) while it reads and asks its approvers: so a
 * request is never written asking a channel whose removal has already moved the pending requests on.
 */
export const channelsTurn = (projectId: string) => `approval_channels:${projectId}`;
