import { CRITERIA, REQUIREMENT_KINDS, type RequirementKind } from '@domain/programme/criteria';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  MenuItem,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { messageOf } from '../providers/errorMapper';
import { createTier, SUPPORT_PRIORITY_TEXT, updateTier, type Tier, type TierBody } from './programmeApi';

type Benefits = TierBody['benefits'];
interface RequirementDraft {
  kind: RequirementKind;
  /** As the admin types it: dollars for money, a count, or a percentage. */
  target: string;
  window_months: string;
}

const DEFAULT_BENEFITS: Benefits = {
  rebate_rate_percent: 2,
  mdf_share_percent: 100,
  protection_days: 90,
  catalogue_discount_percent: 0,
  support_priority: 'standard',
};
const isMoney = (kind: RequirementKind) => CRITERIA[kind].unit === 'cents';
const toDraft = (r: Tier['requirements'][number]): RequirementDraft => ({
  kind: r.kind as RequirementKind,
  target: String(isMoney(r.kind as RequirementKind) ? r.target / 100 : r.target),
  window_months: String(r.window_months),
});

/** Creates a tier or changes one: its name, rank, requirements (money in dollars here, cents on the wire) and benefits. */
export function TierEditor({
  tier,
  nextRank,
  open,
  onClose,
  onSaved,
}: {
  tier: Tier | null;
  nextRank: number;
  open: boolean;
  onClose: () => void;
  onSaved: (saved: Tier, message: string) => void;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [name, setName] = useState('');
  const [rank, setRank] = useState('0');
  const [description, setDescription] = useState('');
  const [requirements, setRequirements] = useState<RequirementDraft[]>([]);
  const [benefits, setBenefits] = useState<Benefits>(DEFAULT_BENEFITS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setError(null);
    setName(tier?.name ?? '');
    setRank(String(tier?.rank ?? nextRank));
    setDescription(tier?.description ?? '');
    setRequirements(tier?.requirements.map(toDraft) ?? []);
    setBenefits(tier?.benefits ?? DEFAULT_BENEFITS);
  }, [open, tier, nextRank]);

  const setRequirement = (index: number, change: Partial<RequirementDraft>) =>
    setRequirements((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const unused = REQUIREMENT_KINDS.filter((kind) => !requirements.some((r) => r.kind === kind));
  const setBenefit = <K extends keyof Benefits>(key: K, value: Benefits[K]) => setBenefits((b) => ({ ...b, [key]: value }));

  const submit = async () => {
    setBusy(true);
    setError(null);
    const body: TierBody = {
      name: name.trim(),
      rank: Number(rank),
      description: description.trim(),
      requirements: requirements.map((r) => ({
        kind: r.kind,
        target: isMoney(r.kind) ? Math.round(Number(r.target) * 100) : Number(r.target),
        window_months: Number(r.window_months),
      })),
      benefits,
    };
    try {
      const answer = tier ? await updateTier(tier.id, body) : await createTier(body);
      onSaved(answer.data, answer.message);
    } catch (e) {
      setError(messageOf(e, 'The tier could not be saved.'));
    } finally {
      setBusy(false);
    }
  };

  const number = (label: string, value: number, onChange: (v: number) => void, unit: string, testId: string) => (
    <TextField
      size="small"
      type="number"
      label={label}
      value={Number.isFinite(value) ? value : ''}
      onChange={(e) => onChange(Number(e.target.value))}
      slotProps={{ input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> }, htmlInput: { min: 0, step: 'any', 'data-testid': testId } }}
    />
  );

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} data-testid="tier-editor">
      <DialogTitle>{tier ? `Edit ${tier.name}` : 'New tier'}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {error ? (
          <Alert severity="error" data-testid="tier-error">
            {error}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
          <TextField
            size="small"
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            slotProps={{ htmlInput: { maxLength: 60, 'data-testid': 'tier-name' } }}
          />
          <TextField
            size="small"
            type="number"
            label="Rank"
            value={rank}
            onChange={(e) => setRank(e.target.value)}
            helperText="0 is the entry tier; higher is better."
            slotProps={{ htmlInput: { min: 0, max: 20, 'data-testid': 'tier-rank' } }}
          />
        </Box>
        <TextField
          size="small"
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          multiline
          slotProps={{ htmlInput: { maxLength: 500 } }}
        />
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Requirements
          </Typography>
          {requirements.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              None: every organisation qualifies.
            </Typography>
          ) : null}
          <Box sx={{ display: 'grid', gap: 1.5 }}>
            {requirements.map((r, index) => (
              <Box
                key={index}
                sx={{
                  display: 'grid',
                  gap: 1,
                  gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) auto' },
                  alignItems: 'center',
                }}
                data-testid={`requirement-${index}`}
              >
                <TextField
                  select
                  size="small"
                  label="Measure"
                  value={r.kind}
                  onChange={(e) => setRequirement(index, { kind: e.target.value as RequirementKind })}
                  sx={{ gridColumn: { xs: '1 / 2', sm: 'auto' } }}
                >
                  {[r.kind, ...unused].map((kind) => (
                    <MenuItem key={kind} value={kind}>
                      {CRITERIA[kind].label}
                    </MenuItem>
                  ))}
                </TextField>
                <IconButton
                  aria-label="Remove requirement"
                  onClick={() => setRequirements((rows) => rows.filter((_, i) => i !== index))}
                  sx={{ order: { sm: 4 } }}
                >
                  <DeleteOutlineIcon />
                </IconButton>
                <TextField
                  size="small"
                  type="number"
                  label="Target"
                  value={r.target}
                  onChange={(e) => setRequirement(index, { target: e.target.value })}
                  slotProps={{
                    input: isMoney(r.kind)
                      ? { startAdornment: <InputAdornment position="start">$</InputAdornment> }
                      : CRITERIA[r.kind].unit === 'percent'
                        ? { endAdornment: <InputAdornment position="end">%</InputAdornment> }
                        : {},
                    htmlInput: { min: 0, step: 'any', 'data-testid': `requirement-target-${index}` },
                  }}
                />
                <TextField
                  size="small"
                  type="number"
                  label="Window"
                  value={r.window_months}
                  onChange={(e) => setRequirement(index, { window_months: e.target.value })}
                  slotProps={{ input: { endAdornment: <InputAdornment position="end">months</InputAdornment> }, htmlInput: { min: 1, max: 36 } }}
                />
              </Box>
            ))}
          </Box>
          {unused.length > 0 ? (
            <Button
              size="small"
              startIcon={<AddIcon />}
              sx={{ mt: 1 }}
              onClick={() => setRequirements((rows) => [...rows, { kind: unused[0], target: '', window_months: '12' }])}
              data-testid="add-requirement"
            >
              Add requirement
            </Button>
          ) : null}
        </Box>
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Benefits
          </Typography>
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}>
            {number('Rebate rate', benefits.rebate_rate_percent, (v) => setBenefit('rebate_rate_percent', v), '%', 'benefit-rebate')}
            {number('MDF share', benefits.mdf_share_percent, (v) => setBenefit('mdf_share_percent', v), '%', 'benefit-mdf')}
            {number('Deal protection', benefits.protection_days, (v) => setBenefit('protection_days', v), 'days', 'benefit-protection')}
            {number('Catalogue discount', benefits.catalogue_discount_percent, (v) => setBenefit('catalogue_discount_percent', v), '%', 'benefit-discount')}
            <TextField
              select
              size="small"
              label="Support priority"
              value={benefits.support_priority}
              onChange={(e) => setBenefit('support_priority', e.target.value as Benefits['support_priority'])}
            >
              {Object.entries(SUPPORT_PRIORITY_TEXT).map(([key, label]) => (
                <MenuItem key={key} value={key}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy || !name.trim()} data-testid="tier-save">
          {tier ? 'Save tier' : 'Create tier'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
