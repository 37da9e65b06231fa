import { useDataProvider } from 'react-admin';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { UserFormDialog } from './UserFormDialog';
import { UserInputs } from './UserInputs';
import { createPayload, type UserFormValues } from './userRules';

const EMPTY_USER = { full_name: '', email: '', password: '', role: '', company_name: '', permissions: [] };

/** The Add User dialog. */
export function UserCreate({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();

  const save = async (values: Record<string, unknown>) => {
    try {
      await dataProvider.create('users', { data: createPayload(values as unknown as UserFormValues) }); // react-admin's Form hands over untyped values; UserInputs' fields are UserFormValues
      toast('User successfully registered', 'success');
      onCreated();
      onClose();
      return undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) {
        const emailError = error.fieldErrors.email;
        toast(emailError ?? (error.message !== 'An error occurred' ? error.message : 'Failed to add user'), 'error');
        return error.fieldErrors;
      }
      toast('An error occurred while adding user', 'error');
      return undefined;
    }
  };

  return (
    <UserFormDialog
      record={open ? EMPTY_USER : null}
      titleId="add-user-title"
      title="Add User"
      submitLabel="Add User"
      busyLabel="Adding..."
      onSubmit={save}
      onClose={onClose}
    >
      <UserInputs mode="create" actorIsAdmin />
    </UserFormDialog>
  );
}
