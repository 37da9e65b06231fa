import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import { Form, useDataProvider } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { UserInputs } from './UserInputs';
import { createPayload, type UserFormValues } from './userRules';

function Actions({ onClose }: { onClose: () => void }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onClose} disabled={isSubmitting}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        {isSubmitting ? 'Adding...' : 'Add User'}
      </Button>
    </DialogActions>
  );
}

/** The Add User dialog. */
export function UserCreate({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));

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
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="add-user-title">
      {open ? (
        <Form onSubmit={save} record={{ full_name: '', email: '', password: '', role: '', company_name: '', permissions: [] }} sanitizeEmptyValues={false}>
          <DialogTitle id="add-user-title">Add User</DialogTitle>
          <DialogContent dividers>
            <UserInputs mode="create" actorIsAdmin />
          </DialogContent>
          <Actions onClose={onClose} />
        </Form>
      ) : null}
    </Dialog>
  );
}
