import { Box, Button, Checkbox, FormControlLabel, Paper, Typography } from '@mui/material';
import { permissionLabel, type Permission } from '@domain/access';

interface PermissionGroup {
  key: string;
  title: string;
  permissions: readonly Permission[];
}

/**
 * Permission checkboxes in one card per group, two columns from sm, each group with Select All and
 * Clear All. `named` makes each group's title a heading and names its buttons after the group,
 * for the approval dialog where several groups' buttons would otherwise read alike.
 */
export function PermissionGroupGrid({
  groups,
  selected,
  onChange,
  named = false,
  testId,
}: {
  groups: readonly PermissionGroup[];
  /** What is ticked; it may hold permissions none of the groups shows, which the buttons leave alone. */
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  named?: boolean;
  testId?: string;
}) {
  const toggle = (permission: Permission, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange(next);
  };
  return (
    <Box data-testid={testId} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {groups.map((group) => (
        <Paper key={group.key} variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-group={named ? group.title : undefined}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" component={named ? 'h4' : 'p'} sx={{ fontWeight: 600 }}>
              {group.title}
            </Typography>
            <Box>
              <Button
                size="small"
                sx={{ minWidth: 0, px: 0.75 }}
                aria-label={named ? `Select All ${group.title}` : undefined}
                onClick={() => onChange(new Set([...selected, ...group.permissions]))}
              >
                Select All
              </Button>
              <Button
                size="small"
                sx={{ minWidth: 0, px: 0.75 }}
                aria-label={named ? `Clear All ${group.title}` : undefined}
                onClick={() => onChange(new Set([...selected].filter((p) => !(group.permissions as readonly string[]).includes(p))))}
              >
                Clear All
              </Button>
            </Box>
          </Box>
          {group.permissions.map((permission) => (
            <FormControlLabel
              key={permission}
              sx={{ display: 'flex', mr: 0 }}
              control={
                <Checkbox size="small" name={permission} checked={selected.has(permission)} onChange={(event) => toggle(permission, event.target.checked)} />
              }
              label={<Typography variant="body2">{permissionLabel(permission)}</Typography>}
            />
          ))}
        </Paper>
      ))}
    </Box>
  );
}
