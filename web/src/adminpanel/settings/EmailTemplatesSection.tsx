import { renderTemplate, SAMPLE_TEMPLATE_VALUES, unknownPlaceholders } from '@domain/settings/notifications';
import { Alert, Box, Button, Chip, MenuItem, Paper, TextField, Tooltip, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { LoadError, Loading } from '../../layout/ListStates';
import { useToast } from '../../layout/toast';
import { ApiError } from '../../providers/errorMapper';
import { SectionHeading, SettingHistory } from './SettingHistory';
import { settingsApi, useSettingsData } from './settingsApi';

/** Email Templates: each event's subject and body with placeholders, previewed with sample values. */
export function EmailTemplatesSection() {
  const toast = useToast();
  const { data, setData, error, reload } = useSettingsData(settingsApi.templates);
  const [kind, setKind] = useState('');
  const [draft, setDraft] = useState({ subject: '', body: '' });
  const [saveError, setSaveError] = useState('');
  const current = data?.templates.find((t) => t.kind === kind) ?? data?.templates[0];
  useEffect(() => {
    if (current) setDraft({ subject: current.subject, body: current.body });
    // A new choice of event (or a saved answer) starts the draft over.
  }, [current?.kind, current?.subject, current?.body]); // eslint-disable-line react-hooks/exhaustive-deps
  if (error) return <LoadError error={error} message="The e-mail templates could not be loaded." onRetry={reload} />;
  if (!data || !current) return <Loading />;

  const unknown = [...new Set([...unknownPlaceholders(draft.subject), ...unknownPlaceholders(draft.body)])];
  const preview = renderTemplate(draft, {
    ...SAMPLE_TEMPLATE_VALUES,
    title: current.label,
    message: `(The text of the "${current.label}" notification, for example: ${SAMPLE_TEMPLATE_VALUES.message})`,
  });
  const changed = draft.subject !== current.subject || draft.body !== current.body;
  const act = async (action: () => ReturnType<typeof settingsApi.resetTemplate>) => {
    setSaveError('');
    try {
      const answer = await action();
      setData(answer.data);
      toast(answer.message ?? 'Saved', 'success');
    } catch (failure) {
      setSaveError(failure instanceof ApiError ? failure.message : 'The template could not be saved.');
    }
  };

  return (
    <Box component="section" aria-label="Email templates">
      <SectionHeading
        title="Email templates"
        text="The wording of the e-mail each notification sends. Placeholders in double braces are filled in for each recipient."
      >
        <SettingHistory setting={`email-template.${current.kind}`} title={`${current.label} e-mail`} />
      </SectionHeading>
      <TextField
        select
        size="small"
        label="Notification"
        value={current.kind}
        onChange={(e) => setKind(e.target.value)}
        sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
      >
        {data.templates.map((t) => (
          <MenuItem key={t.kind} value={t.kind}>
            {t.group}: {t.label}
            {t.customised ? ' (customised)' : ''}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mb: 2 }} aria-label="Placeholders">
        {data.placeholders.map((p) => (
          <Tooltip key={p.name} title={p.description}>
            <Chip size="small" variant="outlined" label={`{{${p.name}}}`} onClick={() => setDraft((d) => ({ ...d, body: `${d.body}{{${p.name}}}` }))} />
          </Tooltip>
        ))}
      </Box>
      {saveError ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {saveError}
        </Alert>
      ) : null}
      {unknown.length ? (
        <Alert severity="warning" sx={{ mb: 1.5 }}>
          Unknown placeholder{unknown.length === 1 ? '' : 's'}: {unknown.map((n) => `{{${n}}}`).join(', ')}.
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, minWidth: 0 }}>
        <Box sx={{ display: 'grid', gap: 1.5, alignContent: 'start', minWidth: 0 }}>
          <TextField
            size="small"
            label="Subject"
            value={draft.subject}
            onChange={(e) => setDraft((d) => ({ ...d, subject: e.target.value }))}
            inputProps={{ maxLength: 200 }}
          />
          <TextField
            label="Body"
            value={draft.body}
            onChange={(e) => setDraft((d) => ({ ...d, body: e.target.value }))}
            multiline
            minRows={8}
            inputProps={{ maxLength: 5000 }}
          />
        </Box>
        <Paper variant="outlined" sx={{ p: 2, bgcolor: 'grey.50', minWidth: 0 }} aria-label="Preview" data-testid="template-preview">
          <Typography variant="caption" color="text.secondary">
            Preview with sample values
          </Typography>
          <Typography variant="subtitle2" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
            {preview.subject || '—'}
          </Typography>
          <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', mt: 1, wordBreak: 'break-word' }}>
            {preview.body}
          </Typography>
        </Paper>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
        <Button variant="contained" disabled={!changed || unknown.length > 0} onClick={() => void act(() => settingsApi.saveTemplate(current.kind, draft))}>
          Save Template
        </Button>
        <Button disabled={!current.customised} onClick={() => void act(() => settingsApi.resetTemplate(current.kind))}>
          Use the standard wording
        </Button>
      </Box>
    </Box>
  );
}
