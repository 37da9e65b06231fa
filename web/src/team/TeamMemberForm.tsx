import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  Switch,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { addTeamMember, grantablePermissionGroups, updateTeamMember, type PermissionEntry, type TeamKind, type TeamMember } from './teamApi';
import { TEAM_TEXTS, validateTeamMember, type TeamMemberForm } from './teamRules';

const EMPTY: TeamMemberForm = { firstName: '', lastName: '', email: '', password: '', permissions: [], isActive: true, invite: false };

const formOf = (member: TeamMember | null): TeamMemberForm =>
  member
    ? {
        firstName: member.firstName,
        lastName: member.lastName,
        email: member.email,
        password: '',
        permissions: member.permissions,
        isActive: member.is_active,
        invite: false,
      }
    : EMPTY;

/** The add and edit modal: names, e-mail, password or invitation, 'User is active', and the permission picker. */
export function TeamMemberFormDialog({
  kind,
  open,
  member,
  onClose,
  onSaved,
}: {
  kind: TeamKind;
  open: boolean;
  member: TeamMember | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const toast = useToast();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const mode = member ? 'edit' : 'create';
  const [form, setForm] = useState<TeamMemberForm>(EMPTY);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [groups, setGroups] = useState<Array<{ category: string; permissions: PermissionEntry[] }> | null>(null);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [invitationLink, setInvitationLink] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setForm(formOf(member));
    setTouched({});
    setServerError(null);
    setInvitationLink(null);
    grantablePermissionGroups()
      .then(setGroups)
      .catch(() => setGroups([]));
  }, [open, member]);

  const errors = useMemo(() => validateTeamMember(form, mode), [form, mode]);
  const valid = Object.keys(errors).length === 0;
  const set = <K extends keyof TeamMemberForm>(key: K, value: TeamMemberForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const shown = (field: keyof typeof errors) => (touched[field] ? errors[field] : undefined);
  const toggle = (key: string) => set('permissions', form.permissions.includes(key) ? form.permissions.filter((p) => p !== key) : [...form.permissions, key]);

  const submit = async () => {
    setSaving(true);
    setServerError(null);
    const input = {
      full_name: `${form.firstName.trim()} ${form.lastName.trim()}`,
      email: form.email.trim(),
      permissions: form.permissions,
      is_active: form.isActive,
      ...(mode === 'create' && form.invite ? { invite: true } : { password: form.password }),
    };
    try {
      if (member) {
        const answer = await updateTeamMember(kind, member.id, input);
        toast(answer.message || TEAM_TEXTS.updated, 'success');
        onSaved();
        onClose();
      } else {
        const answer = await addTeamMember(kind, input);
        toast(answer.message || TEAM_TEXTS.added, 'success');
        onSaved();
        if (answer.invitationLink) setInvitationLink(new URL(answer.invitationLink, window.location.origin).toString());
        else onClose();
      }
    } catch (e) {
      const fallback = member ? TEAM_TEXTS.updateFailed : TEAM_TEXTS.addFailed;
      const message = e instanceof ApiError && e.status !== 0 && e.message ? e.message : fallback;
      setServerError(message);
      toast(message, 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={() => !saving && onClose()} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="team-member-form-title">
      <DialogTitle id="team-member-form-title">{member ? 'Edit Team Member' : TEAM_TEXTS.add}</DialogTitle>
      {invitationLink ? (
        <DialogContent>
          <Alert severity="success" sx={{ mb: 2 }}>
            The invitation is on its way to {form.email}. It works once, for a week.
          </Alert>
          <Typography variant="body2" sx={{ mb: 1 }}>
            You can also pass the link on yourself:
          </Typography>
          <TextField
            fullWidth
            size="small"
            value={invitationLink}
            slotProps={{ input: { readOnly: true } }}
            onFocus={(event) => event.target.select()}
            inputProps={{ 'aria-label': 'Invitation link' }}
          />
          <DialogActions sx={{ px: 0 }}>
            <Button onClick={() => void navigator.clipboard?.writeText(invitationLink).then(() => toast('Link copied.', 'success'))}>Copy link</Button>
            <Button variant="contained" onClick={onClose}>
              Done
            </Button>
          </DialogActions>
        </DialogContent>
      ) : (
        <>
          <DialogContent>
            {serverError ? (
              <Alert severity="error" sx={{ mb: 2 }}>
                {serverError}
              </Alert>
            ) : null}
            <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mt: 1 }}>
              <TextField
                label="First Name"
                required
                value={form.firstName}
                onChange={(e) => set('firstName', e.target.value)}
                onBlur={() => setTouched((t) => ({ ...t, firstName: true }))}
                error={Boolean(shown('firstName'))}
                helperText={shown('firstName')}
              />
              <TextField
                label="Last Name"
                required
                value={form.lastName}
                onChange={(e) => set('lastName', e.target.value)}
                onBlur={() => setTouched((t) => ({ ...t, lastName: true }))}
                error={Boolean(shown('lastName'))}
                helperText={shown('lastName')}
              />
              <TextField
                label="Email"
                required
                type="email"
                value={form.email}
                onChange={(e) => set('email', e.target.value)}
                onBlur={() => setTouched((t) => ({ ...t, email: true }))}
                error={Boolean(shown('email'))}
                helperText={shown('email')}
                sx={{ gridColumn: { sm: '1 / -1' } }}
              />
              {mode === 'create' ? (
                <FormControlLabel
                  sx={{ gridColumn: { sm: '1 / -1' } }}
                  control={<Switch checked={form.invite} onChange={(e) => set('invite', e.target.checked)} />}
                  label="Invite by e-mail (they choose their own password)"
                />
              ) : null}
              {mode === 'edit' || !form.invite ? (
                <TextField
                  label="Password"
                  type="password"
                  required={mode === 'create'}
                  value={form.password}
                  onChange={(e) => set('password', e.target.value)}
                  onBlur={() => setTouched((t) => ({ ...t, password: true }))}
                  error={Boolean(shown('password'))}
                  helperText={shown('password') ?? (mode === 'edit' ? 'Leave blank to keep the current password' : undefined)}
                  sx={{ gridColumn: { sm: '1 / -1' } }}
                  autoComplete="new-password"
                />
              ) : null}
              {mode === 'edit' && member?.status === 'invited' ? null : (
                <FormControlLabel
                  sx={{ gridColumn: { sm: '1 / -1' } }}
                  control={<Switch checked={form.isActive} onChange={(e) => set('isActive', e.target.checked)} />}
                  label="User is active"
                />
              )}
            </Box>
            <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
              Permissions
            </Typography>
            {groups === null ? (
              <Typography variant="body2" color="text.secondary">
                Loading permissions...
              </Typography>
            ) : groups.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                You hold no permissions you can give to team members.
              </Typography>
            ) : (
              <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }} role="group" aria-label="Permissions">
                {groups.map((group) => (
                  <Box key={group.category} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {group.category}
                    </Typography>
                    <FormGroup>
                      {group.permissions.map((permission) => (
                        <FormControlLabel
                          key={permission.key}
                          control={
                            <Checkbox
                              size="small"
                              checked={form.permissions.includes(permission.key)}
                              onChange={() => toggle(permission.key)}
                              onBlur={() => setTouched((t) => ({ ...t, permissions: true }))}
                              slotProps={{ input: { 'aria-label': permission.label } }}
                            />
                          }
                          label={permission.label}
                        />
                      ))}
                    </FormGroup>
                  </Box>
                ))}
              </Box>
            )}
            {touched.permissions && errors.permissions ? <FormHelperText error>{errors.permissions}</FormHelperText> : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button variant="contained" onClick={() => void submit()} disabled={!valid || saving}>
              {saving ? 'Saving...' : member ? 'Save Changes' : form.invite ? 'Send Invitation' : TEAM_TEXTS.add}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
