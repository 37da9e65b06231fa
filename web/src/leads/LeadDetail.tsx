import { Alert, Box, Button, Chip, Divider, Paper, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { RecordHistory } from '../history';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { TextDialog } from './LeadDialogs';
import type { Lead, StatusChange } from '@contracts/leads';
import { acceptLead, changeLeadStatus, convertLead, declineLead, getLead, leadHistory, money, SOURCE_LABELS, timeLeft } from './leadsApi';

const NEXT: Record<string, Array<{ status: string; label: string }>> = {
  accepted: [
    { status: 'contacted', label: 'Mark contacted' },
    { status: 'qualified', label: 'Mark qualified' },
  ],
  contacted: [{ status: 'qualified', label: 'Mark qualified' }],
  qualified: [],
};

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value || '—'}</Typography>
    </Box>
  );
}

/** /leads/:id: the lead, its contact once accepted, the actions of its stage and its timeline. */
export default function LeadDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [lead, setLead] = useState<Lead | null>(null);
  const [history, setHistory] = useState<StatusChange[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'decline' | 'disqualify' | 'convert' | null>(null);

  const load = useCallback(async () => {
    try {
      const [found, entries] = await Promise.all([getLead(id), leadHistory(id)]);
      setLead(found);
      setHistory(entries);
    } catch (caught) {
      setError((caught as Error).message);
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (work: () => Promise<{ message: string }>) => {
    try {
      showToast((await work()).message, 'success');
    } catch (caught) {
      showToast((caught as Error).message, 'error');
    }
    await load();
  };

  if (error)
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{error}</Alert>
      </Box>
    );
  if (!lead) return null;
  const working = ['accepted', 'contacted', 'qualified'].includes(lead.status);

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 1000 }}>
      <PageTitle title={lead.company} subtitle="Lead" />
      <Button component={RouterLink} to="/leads" size="small" sx={{ mb: 1 }}>
        ← All leads
      </Button>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} justifyContent="space-between">
          <Stack direction="row" spacing={1} alignItems="center">
            <Typography variant="h6">{lead.company}</Typography>
            <Chip
              label={lead.status_label}
              color={lead.status === 'converted' ? 'success' : lead.status === 'assigned' ? 'warning' : 'default'}
              data-testid="lead-status"
            />
          </Stack>
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
            {lead.status === 'assigned' ? (
              <>
                <Chip size="small" label={timeLeft(lead.due_at)} />
                <Button variant="contained" onClick={() => act(() => acceptLead(lead.id))} data-testid="accept-lead">
                  Accept
                </Button>
                <Button color="inherit" onClick={() => setDialog('decline')}>
                  Decline
                </Button>
              </>
            ) : null}
            {working
              ? (NEXT[lead.status] ?? []).map((n) => (
                  <Button key={n.status} onClick={() => act(() => changeLeadStatus(lead.id, n.status, null))}>
                    {n.label}
                  </Button>
                ))
              : null}
            {working ? (
              <Button color="inherit" onClick={() => setDialog('disqualify')}>
                Disqualify
              </Button>
            ) : null}
            {working ? (
              <Button variant="contained" onClick={() => setDialog('convert')} data-testid="convert-lead">
                Convert to deal
              </Button>
            ) : null}
            {lead.project_id ? (
              <Button variant="outlined" component={RouterLink} to={`/project/details?id=${lead.project_id}`} data-testid="lead-project">
                Open the deal
              </Button>
            ) : null}
          </Stack>
        </Stack>
        <Divider sx={{ my: 2 }} />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          <Field label="Contact" value={lead.contact_visible ? lead.contact_name : 'Shown once accepted'} />
          <Field label="E-mail" value={lead.contact_visible ? lead.email : '—'} />
          <Field label="Phone" value={lead.contact_visible ? lead.phone : '—'} />
          <Field label="Country / region" value={[lead.country, lead.region].filter(Boolean).join(' · ')} />
          <Field label="Product interest" value={lead.product_interest} />
          <Field label="Estimated value" value={money(lead.estimated_value)} />
          <Field label="Source" value={SOURCE_LABELS[lead.source] ?? lead.source} />
          <Field label="Received" value={formatDateTime(lead.created_at)} />
        </Box>
        {lead.notes ? (
          <Typography variant="body2" sx={{ mt: 2 }}>
            {lead.notes}
          </Typography>
        ) : null}
        {lead.status_reason && ['disqualified', 'unassigned'].includes(lead.status) ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {lead.status_reason}
          </Alert>
        ) : null}
      </Paper>
      <Typography variant="h6" sx={{ mb: 1 }}>
        Timeline
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }} data-testid="lead-timeline">
        {history.map((entry) => (
          <Box key={entry.id} sx={{ mb: 1.5 }}>
            <Typography variant="body2">
              <strong>{entry.to_status}</strong>
              {entry.from_status ? ` (from ${entry.from_status})` : ''} · {formatDateTime(entry.occurred_at)}
              {entry.actor_name ? ` · ${entry.actor_name}` : ''}
            </Typography>
            {entry.reason ? (
              <Typography variant="caption" color="text.secondary">
                {entry.reason}
              </Typography>
            ) : null}
          </Box>
        ))}
      </Paper>
      <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>
        History
      </Typography>
      {/* Keyed on the lead's last change, so an answer given on this page shows at once. */}
      <RecordHistory key={lead.updated_at} path="/leads" id={lead.id} />
      <TextDialog
        open={dialog === 'decline'}
        title="Decline this lead"
        label="Reason"
        confirm="Decline"
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          await declineLead(lead.id, reason);
          setDialog(null);
          navigate('/leads');
        }}
      />
      <TextDialog
        open={dialog === 'disqualify'}
        title="Disqualify this lead"
        label="Reason"
        confirm="Disqualify"
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          await changeLeadStatus(lead.id, 'disqualified', reason);
          setDialog(null);
          await load();
        }}
      />
      <TextDialog
        open={dialog === 'convert'}
        title="Convert to a deal registration"
        label="Deal title"
        confirm="Convert"
        extra={{ label: 'Expected closure date', type: 'date' }}
        onClose={() => setDialog(null)}
        onConfirm={async (title, closes) => {
          const answer = await convertLead(lead.id, title, closes || null);
          setDialog(null);
          showToast(answer.message, 'success');
          await load();
        }}
      />
    </Box>
  );
}
