import { Chip, Tooltip } from '@mui/material';
import { formatDate } from '../formatting';
import type { TeamMember } from './teamApi';

/** A member's status chip (the invitation's end on hover): the team list and the member's details show it. */
export const STATUS_CHIPS: Record<TeamMember['status'], { label: string; color: 'success' | 'default' | 'info' }> = {
  active: { label: 'Active', color: 'success' },
  inactive: { label: 'Inactive', color: 'default' },
  invited: { label: 'Invited', color: 'info' },
};

export function MemberStatus({ member }: { member: TeamMember }) {
  const chip = STATUS_CHIPS[member.status];
  const title = member.status === 'invited' && member.invitation_expires_at ? `Invitation open until ${formatDate(member.invitation_expires_at)}` : '';
  return (
    <Tooltip title={title}>
      <Chip size="small" label={chip.label} color={chip.color} variant={member.status === 'inactive' ? 'outlined' : 'filled'} />
    </Tooltip>
  );
}
