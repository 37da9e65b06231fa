import { DEFAULT_PERMISSIONS_BY_ROLE, grantablePermissions, isRole, PERMISSION_GROUPS, ROLE_LABELS, type Permission, type Role } from '@domain/access';
import { Box, FormHelperText, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { BooleanInput, PasswordInput, SelectInput, TextInput, useInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { PermissionGroupGrid } from '../access/PermissionGroupGrid';
import { useAccess } from '../access/usePrincipal';
import { ADDABLE_ROLES, emailRule, newUserPasswordRule, optionalPasswordRule, requiredFullName, requiredRole } from './userRules';

const roleChoice = (role: string) => ({ id: role, name: isRole(role) ? ROLE_LABELS[role] : role });

/** Permission checkboxes grouped by category, with Select All and Clear All per group. */
export function PermissionPicker({ role, resetOnRoleChange }: { role: string; resetOnRoleChange: boolean }) {
  const { principal } = useAccess();
  const { field } = useInput<string[]>({ source: 'permissions', defaultValue: [] });
  const selected = new Set<string>(Array.isArray(field.value) ? field.value : []);
  const grantable = new Set<Permission>(principal ? grantablePermissions(principal, role) : []);
  // On Add User the picker first appears when a role is chosen: that counts as a change.
  const previousRole = useRef(resetOnRoleChange ? '' : role);

  // A newly chosen role starts with that role's usual permissions.
  useEffect(() => {
    if (resetOnRoleChange && previousRole.current !== role) {
      field.onChange(isRole(role) ? DEFAULT_PERMISSIONS_BY_ROLE[role as Role].filter((p) => grantable.has(p)) : []);
    }
    previousRole.current = role;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of role resets the picker; field and grantable are new objects each render
  }, [role]);

  const set = (next: Set<string>) => field.onChange([...next]);

  const groups = Object.values(PERMISSION_GROUPS)
    .map((group) => ({ ...group, permissions: group.permissions.filter((p) => grantable.has(p)) }))
    .filter((group) => group.permissions.length > 0);

  return (
    <Box data-testid="permission-picker">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Permissions
      </Typography>
      {groups.length === 0 ? <FormHelperText>No permissions can be assigned to this role.</FormHelperText> : null}
      <PermissionGroupGrid groups={groups} selected={selected} onChange={set} />
    </Box>
  );
}

/** The fields of Add User and Edit User. */
export function UserInputs({ mode, actorIsAdmin }: { mode: 'create' | 'edit'; actorIsAdmin: boolean }) {
  const role = useWatch({ name: 'role' }) as string | undefined;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <TextInput source="full_name" label="Full Name" validate={requiredFullName} fullWidth autoComplete="off" />
      <TextInput source="email" label="Email" type="email" validate={emailRule} fullWidth autoComplete="off" />
      {mode === 'create' ? (
        <PasswordInput source="password" label="Password" validate={newUserPasswordRule} fullWidth autoComplete="new-password" />
      ) : actorIsAdmin ? (
        <PasswordInput
          source="password"
          label="New Password"
          helperText="Leave blank to keep the current password"
          validate={optionalPasswordRule}
          fullWidth
          autoComplete="new-password"
        />
      ) : null}
      {mode === 'create' ? (
        <SelectInput source="role" label="Role" choices={ADDABLE_ROLES.map(roleChoice)} validate={requiredRole} fullWidth emptyText="Select a role" />
      ) : (
        <SelectInput source="role" label="Role" choices={role ? [roleChoice(role)] : []} disabled fullWidth helperText="The role cannot be changed" />
      )}
      <TextInput source="company_name" label="Company" fullWidth autoComplete="off" />
      {mode === 'edit' ? <BooleanInput source="is_active" label="Active" /> : null}
      {role ? <PermissionPicker role={role} resetOnRoleChange={mode === 'create'} /> : null}
    </Box>
  );
}
