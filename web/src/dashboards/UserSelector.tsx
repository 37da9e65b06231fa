import type { DashboardKind } from '@domain/dashboards/quickActions';
import { Autocomplete, Box, CircularProgress, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDebounced } from '../layout/useDebounced';
import type { DashboardUser } from '@contracts/dashboards';
import { searchUsers } from './dashboardApi';

/** The spec's selector texts per dashboard (001 §3, Dashboards). */
export const SELECTOR_TEXTS: Readonly<Record<DashboardKind, { label: string; placeholder: string; plural: string; roles: readonly string[] }>> = {
  manufacturer: { label: 'Manufacturer', placeholder: 'Select Manufacturer', plural: 'Manufacturers', roles: ['manufacturer'] },
  distributor: { label: 'Distributor', placeholder: 'Select Distributor', plural: 'Distributors', roles: ['distributor'] },
  partner: { label: 'Partner', placeholder: 'Select Partner', plural: 'Partners', roles: ['partner'] },
  support: { label: 'Support', placeholder: 'Select Support User', plural: 'Support Users', roles: ['support'] },
  admin: { label: 'Administrator', placeholder: 'Select Administrator', plural: 'Administrators', roles: ['admin', 'administrator'] },
};

/** Administrators only: whose figures the dashboard shows. Search matches name, e-mail or company, in any case. */
export function UserSelector({ kind, value, onChange }: { kind: DashboardKind; value: DashboardUser | null; onChange: (user: DashboardUser | null) => void }) {
  const texts = SELECTOR_TEXTS[kind];
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim(), 250);
  const [options, setOptions] = useState<DashboardUser[]>([]);
  const [loading, setLoading] = useState(false);
  // The chosen user's label in the box is not a search.
  const query = value && search === optionLabel(value) ? '' : search;

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    searchUsers(texts.roles, query)
      .then((users) => !cancelled && setOptions(users))
      .catch(() => !cancelled && setOptions([]))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [texts.roles, query]);

  return (
    <Autocomplete
      sx={{ width: { xs: '100%', sm: 360 }, mb: 2 }}
      options={options}
      value={value}
      onChange={(_, user) => onChange(user)}
      inputValue={input}
      onInputChange={(_, next) => setInput(next)}
      // The server already filtered by name, e-mail and company.
      filterOptions={(all) => all}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={optionLabel}
      loading={loading}
      noOptionsText={query ? `No ${texts.plural} found matching the search` : `No ${texts.plural} available`}
      renderOption={(props, user) => (
        <Box component="li" {...props} key={user.id}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {user.full_name}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              {user.email}
              {user.company_name ? ` · ${user.company_name}` : ''}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={texts.label}
          placeholder={texts.placeholder}
          size="small"
          // The label stays above the box so the spec's placeholder is always visible.
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
          InputProps={{
            ...params.InputProps,
            endAdornment: (
              <>
                {loading ? <CircularProgress size={18} /> : null}
                {params.InputProps.endAdornment}
              </>
            ),
          }}
        />
      )}
    />
  );
}

const optionLabel = (user: DashboardUser) => (user.company_name ? `${user.full_name} (${user.company_name})` : user.full_name);
