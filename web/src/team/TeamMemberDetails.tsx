import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { normalizePermissions, permissionLabel } from '@domain/access';
import { formatDate } from '../formatting';
import type { TeamMember } from './teamApi';
import { MemberStatus } from './MemberStatus';
import { firstFive, groupPermissions } from './teamRules';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The spec's label of a sub-user permission ('projects_read' → 'View Projects'); the action itself when unknown. */
function labelOf(category: string, action: string): string {
  const [permission] = normalizePermissions([`${category}_${action}`]);
  return permission ? permissionLabel(permission) : capitalised(action);
}

/** The view-details modal: the member, its permissions grouped by category, the total, and its sub-users. */
export function TeamMemberDetails({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const groups = member ? groupPermissions(member.permissions) : [];
  const subUsers = firstFive(member?.subUsers ?? []);
  return (
    <Dialog open={Boolean(member)} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="team-member-details-title">
      <DialogTitle id="team-member-details-title">Team Member Details</DialogTitle>
      {member ? (
        <DialogContent>
          <Typography variant="h6" component="p">
            {member.full_name}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {member.email}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}>
            <MemberStatus member={member} />
            <Typography variant="caption" color="text.secondary">
              Joined {formatDate(member.created_at)}
            </Typography>
          </Box>
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            Permissions ({member.permissions.length} total)
          </Typography>
          {groups.map((group) => (
            <Box key={group.category} sx={{ mt: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {capitalised(group.category)}
              </Typography>
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
                {group.actions.map((action) => (
                  <Chip key={action} size="small" variant="outlined" label={labelOf(group.category, action)} />
                ))}
              </Box>
            </Box>
          ))}
          <Typography variant="subtitle2" sx={{ mt: 2 }}>
            Sub-users ({member.subUsers.length})
          </Typography>
          {subUsers.shown.length ? (
            <Typography variant="body2">
              {subUsers.shown.join(', ')}
              {subUsers.more ? ` ${subUsers.more}` : ''}
            </Typography>
          ) : (
            <Typography variant="body2" color="text.secondary">
              None: team members do not have teams of their own.
            </Typography>
          )}
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
