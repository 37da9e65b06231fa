import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, List, ListItem, ListItemText, MenuItem, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';

type Answer = Promise<{ message?: string }>;

/**
 * A project tab of records linked to the project (its orders, its team): the list, and for the owner
 * a choice of the organisation's records not yet linked with a button to link one, and a remove button on each.
 */
export function LinkedRecords<Linked extends { id: string }, Candidate extends { id: string }>({
  projectId,
  canEdit,
  onChanged,
  getLinked,
  getCandidates,
  chooseLabel,
  noCandidates,
  candidateLabel,
  linkLabel,
  link,
  empty,
  removeLabel,
  remove,
  primary,
  secondary,
}: {
  projectId: string;
  canEdit: boolean;
  /** After each link or removal, beside reading the tab again. */
  onChanged?: () => void;
  getLinked: (projectId: string) => Promise<Linked[]>;
  getCandidates: (projectId: string) => Promise<Candidate[]>;
  chooseLabel: string;
  /** The helper text when there is nothing left to link. */
  noCandidates: string;
  candidateLabel: (candidate: Candidate) => ReactNode;
  linkLabel: string;
  link: (projectId: string, candidateId: string) => Answer;
  empty: string;
  removeLabel: (linked: Linked) => string;
  remove: (projectId: string, linked: Linked) => Answer;
  primary: (linked: Linked) => ReactNode;
  secondary: (linked: Linked) => ReactNode;
}) {
  const toast = useToast();
  const [linked, setLinked] = useState<Linked[] | null>(null);
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [chosen, setChosen] = useState('');
  const load = useCallback(() => {
    getLinked(projectId)
      .then(setLinked)
      .catch(() => setLinked([]));
    if (canEdit)
      getCandidates(projectId)
        .then(setCandidates)
        .catch(() => setCandidates([]));
  }, [projectId, canEdit, getLinked, getCandidates]);
  useEffect(load, [load]);
  const act = async (work: () => Answer) => {
    try {
      toast((await work()).message ?? 'Saved', 'success');
      setChosen('');
      load();
      onChanged?.();
    } catch (caught) {
      toast((caught as Error).message, 'error');
    }
  };
  if (!linked) return <Loading />;
  return (
    <Box>
      {canEdit ? (
        <Box
          sx={{
            display: 'grid',
            gap: 1,
            mb: 2,
            alignItems: 'start',
            gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 360px) auto' },
            justifyContent: 'start',
          }}
        >
          <TextField
            select
            size="small"
            label={chooseLabel}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            disabled={!candidates.length}
            helperText={candidates.length ? undefined : noCandidates}
          >
            {candidates.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {candidateLabel(c)}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" sx={{ height: 40 }} disabled={!chosen} onClick={() => void act(() => link(projectId, chosen))}>
            {linkLabel}
          </Button>
        </Box>
      ) : null}
      {linked.length === 0 ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <List dense>
          {linked.map((l) => (
            <ListItem
              key={l.id}
              divider
              secondaryAction={
                canEdit ? (
                  <IconButton edge="end" aria-label={removeLabel(l)} onClick={() => void act(() => remove(projectId, l))}>
                    <DeleteIcon />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemText primary={primary(l)} secondary={secondary(l)} />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
