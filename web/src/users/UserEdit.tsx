import type { UserView } from '@contracts/identity';
import { isAdminRole } from '@domain/access';
import { useDataProvider } from 'react-admin';
import { useAccess } from '../access/usePrincipal';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { UserFormDialog } from './UserFormDialog';
import { UserInputs } from './UserInputs';
import { companyOf, permissionsOf, updatePayload, type UserFormValues } from './userRules';

/** The Edit User dialog: the role is fixed; a new password only for administrators. */
export function UserEdit({ record, onClose, onSaved }: { record: UserView | null; onClose: () => void; onSaved: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const { role } = useAccess();
  const actorIsAdmin = isAdminRole(role);

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
    <UserFormDialog
      record={
        record && {
          id: record.id,
          full_name: record.full_name,
          email: record.email,
          role: record.role,
          is_active: record.is_active,
          company_name: companyOf(record),
          permissions: permissionsOf(record),
          password: '',
        }
      }
      titleId="edit-user-title"
      title="Edit User"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      onSubmit={save}
      onClose={onClose}
    >
      <UserInputs mode="edit" actorIsAdmin={actorIsAdmin} />
    </UserFormDialog>
  );
}
