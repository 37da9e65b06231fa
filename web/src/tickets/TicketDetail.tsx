import type { TicketAssignee, TicketComment, TicketWithComments } from '@contracts/tickets';
import { RecordHistory } from '../history';
import { TICKET_MESSAGES, TICKET_STATUSES } from '@domain/tickets/tickets';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import LockIcon from '@mui/icons-material/Lock';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { formatDate, formatDateTime } from '../formatting';
import { Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { OverdueChip, TicketPriorityChip, TicketStatusChip } from './ticketLabels';
import { addTicketComment, assignTicket, changeTicketStatus, downloadAttachment, getAssignees, getTicket } from './ticketsApi';

const KIND_LABELS: Record<string, string> = { initial: 'Initial comment', comment: 'Reply', status: 'Status change', assignment: 'Assignment' };

function ThreadEntry({ entry }: { entry: TicketComment }) {
  return (
    <Paper
      variant="outlined"
      data-testid={entry.is_internal ? 'internal-entry' : 'public-entry'}
      sx={{
        p: 1.5,
        bgcolor: entry.is_internal ? 'warning.50' : 'background.paper',
        borderColor: entry.is_internal ? 'warning.main' : 'divider',
        borderStyle: entry.is_internal ? 'dashed' : 'solid',
        backgroundColor: entry.is_internal ? 'rgba(255, 193, 7, 0.08)' : undefined,
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 0.5 }}>
        <Typography variant="subtitle2">{entry.author.full_name ?? 'PartnerHub'}</Typography>
        {entry.author.role ? (
          <Typography variant="caption" color="text.secondary">
            {entry.author.role}
          </Typography>
        ) : null}
        {entry.is_internal ? <Chip size="small" color="warning" icon={<LockIcon />} label={entry.kind === 'comment' ? 'Internal' : 'Internal note'} /> : null}
        <Typography variant="caption" color="text.secondary">
          {entry.kind === 'comment' && entry.is_internal ? 'Internal note' : KIND_LABELS[entry.kind]}
          {entry.status_to ? ` → ${entry.status_to}` : ''} · {formatDateTime(entry.created_at)}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {entry.comment}
      </Typography>
    </Paper>
  );
}

interface Props {
  ticketId: string | null;
  staff: boolean;
  onClose: () => void;
  onChanged: () => void;
}

/** One ticket: its facts, attachments, the conversation (internal notes visibly apart), status, assignment and history. */
export function TicketDetail({ ticketId, staff, onClose, onChanged }: Props) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const toast = useToast();
  const [ticket, setTicket] = useState<TicketWithComments | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [tab, setTab] = useState(0);
  const [reply, setReply] = useState('');
  const [replyInternal, setReplyInternal] = useState(false);
  const [replyError, setReplyError] = useState('');
  const [status, setStatus] = useState('');
  const [statusComment, setStatusComment] = useState('');
  const [statusInternal, setStatusInternal] = useState(false);
  const [resolution, setResolution] = useState('');
  const [assignees, setAssignees] = useState<TicketAssignee[]>([]);
  const [assignee, setAssignee] = useState('');
  const [assignError, setAssignError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    if (!ticketId) return;
    try {
      const loaded = await getTicket(ticketId);
      setTicket(loaded);
      setStatus(loaded.status);
      setAssignee(loaded.assigned_to ?? '');
      setLoadFailed(false);
    } catch (error) {
      console.error(error);
      setLoadFailed(true);
    }
  }, [ticketId]);

  useEffect(() => {
    setTicket(null);
    setTab(0);
    setReply('');
    setReplyInternal(false);
    setStatusComment('');
    setResolution('');
    void load();
    if (ticketId && staff) getAssignees().then(setAssignees, (error) => console.error(error));
  }, [ticketId, staff, load]);

  const act = async (work: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      const answer = await work();
      toast(answer.message, 'success');
      await load();
      onChanged();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError && error.handled)) toast(error instanceof Error ? error.message : 'The change could not be saved.', 'error');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const sendReply = async () => {
    if (!reply.trim()) {
      setReplyError(TICKET_MESSAGES.commentRequired);
      return;
    }
    if (await act(() => addTicketComment(ticket!.id, { comment: reply, is_internal: replyInternal }))) {
      setReply('');
      setReplyInternal(false);
    }
  };

  const updateStatus = async () => {
    const done = await act(() =>
      changeTicketStatus(ticket!.id, {
        status,
        ...(statusComment.trim() ? { comment: statusComment, is_internal: statusInternal } : {}),
        ...(status === 'Resolved' && resolution.trim() ? { resolution_notes: resolution } : {}),
      }),
    );
    if (done) {
      setStatusComment('');
      setStatusInternal(false);
      setResolution('');
    }
  };

  const assign = async () => {
    if (!assignee) {
      setAssignError(TICKET_MESSAGES.assigneeRequired);
      return;
    }
    setAssignError('');
    await act(() => assignTicket(ticket!.id, { assigned_to: assignee }));
  };

  return (
    <Dialog open={Boolean(ticketId)} onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="ticket-detail-title">
      <DialogTitle id="ticket-detail-title" sx={{ pr: 2 }}>
        {ticket ? (
          <>
            <Typography variant="caption" color="text.secondary" component="p" data-testid="ticket-number">
              {ticket.ticket_id}
            </Typography>
            <Typography variant="h6" component="span" sx={{ wordBreak: 'break-word' }}>
              {ticket.title}
            </Typography>
          </>
        ) : (
          'Ticket'
        )}
      </DialogTitle>
      <DialogContent dividers>
        {loadFailed ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void load()}>
                Retry
              </Button>
            }
          >
            The ticket could not be loaded.
          </Alert>
        ) : null}
        {!ticket && !loadFailed ? <Loading /> : null}
        {ticket ? (
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              <TicketStatusChip status={ticket.status} />
              <TicketPriorityChip priority={ticket.priority} />
              <Chip size="small" variant="outlined" label={ticket.category} />
              {ticket.is_overdue ? <OverdueChip /> : null}
              {ticket.tags.map((tag) => (
                <Chip key={tag} size="small" label={`#${tag}`} />
              ))}
            </Box>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {ticket.description}
            </Typography>
            <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
              <Typography variant="body2">
                <strong>Created by:</strong> {ticket.creator.full_name ?? '—'}
                {ticket.company_name ? ` (${ticket.company_name})` : ''}
              </Typography>
              <Typography variant="body2">
                <strong>Assigned to:</strong> <span data-testid="ticket-assignee">{ticket.assignee?.full_name ?? 'Unassigned'}</span>
              </Typography>
              <Typography variant="body2">
                <strong>Created:</strong> {formatDateTime(ticket.created_at)}
              </Typography>
              {ticket.status === 'Resolved' || ticket.status === 'Closed' ? null : (
                <Typography variant="body2">
                  <strong>Due:</strong> {formatDateTime(ticket.due_date)}
                </Typography>
              )}
            </Box>
            {ticket.rma ? (
              <Alert severity="info" data-testid="rma-link">
                Return of {ticket.rma.serial_number} ({ticket.rma.product_name}), order{' '}
                <a href={`/order/track/${ticket.rma.order_id}`}>{ticket.rma.order_number}</a>
              </Alert>
            ) : null}
            {ticket.resolution_notes ? (
              <Alert severity="success">
                <strong>Resolution:</strong> {ticket.resolution_notes}
              </Alert>
            ) : null}
            {ticket.attachments.length ? (
              <Box>
                <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
                  Attachments
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  {ticket.attachments.map((file) => (
                    <Button
                      key={file.name}
                      size="small"
                      variant="outlined"
                      startIcon={<AttachFileIcon />}
                      onClick={() => downloadAttachment(file).catch((error: Error) => toast(error.message, 'error'))}
                    >
                      {file.original_name}
                    </Button>
                  ))}
                </Box>
              </Box>
            ) : null}

            {staff ? (
              <Paper variant="outlined" sx={{ p: 2 }}>
                <Typography variant="subtitle2" sx={{ mb: 1 }}>
                  Work this ticket
                </Typography>
                <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                  <Stack spacing={1}>
                    <TextField
                      select
                      size="small"
                      label="Status"
                      value={status}
                      onChange={(e) => setStatus(e.target.value)}
                      slotProps={{ htmlInput: { 'data-testid': 'status-select' } }}
                    >
                      {TICKET_STATUSES.map((s) => (
                        <MenuItem key={s} value={s}>
                          {s}
                        </MenuItem>
                      ))}
                    </TextField>
                    <TextField
                      size="small"
                      label="Status comment (optional)"
                      value={statusComment}
                      onChange={(e) => setStatusComment(e.target.value)}
                      multiline
                    />
                    {status === 'Resolved' ? (
                      <TextField size="small" label="Resolution notes" value={resolution} onChange={(e) => setResolution(e.target.value)} multiline />
                    ) : null}
                    <FormControlLabel
                      control={<Checkbox size="small" checked={statusInternal} onChange={(e) => setStatusInternal(e.target.checked)} />}
                      label="Comment is internal"
                    />
                    <Button variant="contained" size="small" disabled={busy} onClick={() => void updateStatus()}>
                      Update Status
                    </Button>
                  </Stack>
                  <Stack spacing={1}>
                    <TextField
                      select
                      size="small"
                      label="Assign to"
                      value={assignee}
                      onChange={(e) => {
                        setAssignee(e.target.value);
                        setAssignError('');
                      }}
                      error={Boolean(assignError)}
                      helperText={assignError}
                    >
                      {assignees.map((u) => (
                        <MenuItem key={u.id} value={u.id}>
                          {u.full_name} ({u.role})
                        </MenuItem>
                      ))}
                    </TextField>
                    <Button variant="outlined" size="small" disabled={busy} onClick={() => void assign()}>
                      Assign
                    </Button>
                  </Stack>
                </Box>
              </Paper>
            ) : null}

            <Divider />
            <Tabs value={tab} onChange={(_, value: number) => setTab(value)} aria-label="Ticket sections">
              <Tab label={`Conversation (${ticket.comments?.length ?? 0})`} />
              <Tab label="History" />
            </Tabs>
            {tab === 0 ? (
              <Stack spacing={1.5}>
                {(ticket.comments ?? []).length === 0 ? (
                  <Typography color="text.secondary" variant="body2">
                    No comments yet.
                  </Typography>
                ) : null}
                {(ticket.comments ?? []).map((entry) => (
                  <ThreadEntry key={entry.id} entry={entry} />
                ))}
                <TextField
                  label={replyInternal ? 'Internal note' : 'Reply'}
                  name="reply"
                  multiline
                  minRows={2}
                  value={reply}
                  onChange={(e) => {
                    setReply(e.target.value);
                    setReplyError('');
                  }}
                  error={Boolean(replyError)}
                  helperText={replyError || (replyInternal ? 'Only support staff see internal notes.' : undefined)}
                />
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between' }}>
                  {staff ? (
                    <FormControlLabel
                      control={<Checkbox checked={replyInternal} onChange={(e) => setReplyInternal(e.target.checked)} />}
                      label="Internal note"
                    />
                  ) : (
                    <span />
                  )}
                  <Button variant="contained" disabled={busy} onClick={() => void sendReply()}>
                    {replyInternal ? 'Add Internal Note' : 'Send Reply'}
                  </Button>
                </Box>
              </Stack>
            ) : (
              <RecordHistory path="/tickets" id={ticket.id} />
            )}
            <Typography variant="caption" color="text.secondary">
              Last updated {formatDate(ticket.updated_at)}
            </Typography>
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
