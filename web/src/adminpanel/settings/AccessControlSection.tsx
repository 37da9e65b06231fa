import { isAdminRole } from '@domain/access';
import { Alert, Box, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { LoadError, Loading } from '../../layout/ListStates';
import { SectionHeading } from './SettingHistory';
import { settingsApi, useSettingsData } from './settingsApi';

/** Access Control: read-only, the permissions each role starts with. Each user's own are changed in User Management. */
export function AccessControlSection() {
  const { data, error, reload } = useSettingsData(settingsApi.accessControl);
  if (error) return <LoadError error={error} message="The access rules could not be loaded." onRetry={reload} />;
  if (!data) return <Loading />;
  return (
    <Box component="section" aria-label="Access control">
      <SectionHeading title="Access control" text="The permissions each role starts with. They are part of the portal's rules and are read-only here." />
      <Alert severity="info" sx={{ mb: 2 }}>
        To change what one person may do, edit their permissions in <RouterLink to="/adminpanel?tab=users">User Management</RouterLink>; partners and
        distributors choose their team members' permissions themselves.
      </Alert>
      <TableContainer sx={{ maxWidth: '100%' }}>
        <Table size="small" aria-label="Role permissions">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: { sm: 200 } }}>Role</TableCell>
              <TableCell>Permissions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.roles.map((role) => (
              <TableRow key={role.role}>
                <TableCell sx={{ verticalAlign: 'top', fontWeight: 600 }}>{role.label}</TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                    {isAdminRole(role.role) ? (
                      <Chip size="small" color="primary" label="Every permission" />
                    ) : (
                      role.permissions.map((p) => <Chip key={p.name} size="small" variant="outlined" label={p.label} title={p.name} />)
                    )}
                  </Box>
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ verticalAlign: 'top', fontWeight: 600 }}>API key (vendor, every read scope)</TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {data.integration.permissions.map((p) => (
                    <Chip key={p.name} size="small" variant="outlined" label={p.label} title={p.name} />
                  ))}
                </Box>
                <Typography variant="caption" color="text.secondary">
                  Read-only: every organisation's lists, never a change.
                </Typography>
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
