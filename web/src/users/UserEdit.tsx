import type { UserView } from '@contracts/identity';
import { isAdminRole } from '@domain/access';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import { Form, useDataProvider } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { useAccess } from '../access/usePrincipal';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { UserInputs } from './UserInputs';
import { companyOf, permissionsOf, updatePayload, type UserFormValues } from './userRules';

function Actions({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onClose} disabled={isSubmitting}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        {isSubmitting ? 'Saving...' : 'Save Changes'}
      </Button>
    </DialogActions>
  );
}

/** The Edit User dialog: the role is fixed; a new password only for administrators. */
export function UserEdit({ record, onClose, onSaved }: { record: UserView | null; onClose: () => void; onSaved: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const { role } = useAccess();
  const actorIsAdmin = isAdminRole(role);
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));

  const save = async (values: Record<string, unknown>) => {
    if (!record) return undefined;
    try {
      await dataProvider.update('users', {
        id: record.id,
        data: updatePayload(record, values as unknown as UserFormValues, actorIsAdmin), // react-admin's Form hands over untyped values; UserInputs' fields are UserFormValues
        previousData: record,
      });
      toast('User updated successfully', 'success');
      onSaved();
      onClose();
      return undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) {
        toast(error.message !== 'An error occurred' ? error.message : 'Failed to update user', 'error');
        return error.fieldErrors;
      }
      toast('Failed to update user', 'error');
      return undefined;
    }
  };

  return (
    <Dialog open={Boolean(record)} onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="edit-user-title">
      {record ? (
        <Form
          onSubmit={save}
          sanitizeEmptyValues={false}
          record={{
            id: record.id,
            full_name: record.full_name,
            email: record.email,
            role: record.role,
            is_active: record.is_active,
            company_name: companyOf(record),
            permissions: permissionsOf(record),
            password: '',
          }}
        >
          <DialogTitle id="edit-user-title">Edit User</DialogTitle>
          <DialogContent dividers>
            <UserInputs mode="edit" actorIsAdmin={actorIsAdmin} />
          </DialogContent>
          <Actions onClose={onClose} />
        </Form>
      ) : null}
    </Dialog>
  );
}
