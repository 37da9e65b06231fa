import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import BookmarkAddOutlinedIcon from '@mui/icons-material/BookmarkAddOutlined';
import CheckIcon from '@mui/icons-material/Check';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { useUserStore } from './userStore';

export interface SavedFilter<V> {
  name: string;
  value: V;
}

const NAME_MAX = 40;
const SAVED_MAX = 20;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Named filter sets of one list, as react-admin's SavedQueriesList: "Save current filters" names
 * what the list shows now (filters, tab and sort), a saved one applies it again, and each can be
 * removed. Kept per user in react-admin's store, so they survive a reload and a new session.
 */
export function SavedFilters<V>({
  storeKey,
  current,
  onApply,
  canSave,
  compact = false,
}: {
  storeKey: string;
  current: V;
  onApply: (value: V) => void;
  canSave: boolean;
  /** Phones: the icon alone (the name of the matching saved entry in its tooltip). */
  compact?: boolean;
}) {
  const [saved, setSaved] = useUserStore<SavedFilter<V>[]>(`${storeKey}.savedFilters`, []);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const trimmed = name.trim();
  const taken = saved.some((s) => s.name.toLowerCase() === trimmed.toLowerCase());
  const active = saved.find((s) => same(s.value, current));

  const save = () => {
    if (!trimmed || trimmed.length > NAME_MAX) return;
    // A name used again replaces the filters it stood for.
    setSaved([...saved.filter((s) => s.name.toLowerCase() !== trimmed.toLowerCase()), { name: trimmed, value: current }].slice(-SAVED_MAX));
    setNaming(false);
    setName('');
  };

  return (
    <>
      {compact ? (
        <Tooltip title={active ? `Saved filters: ${active.name}` : 'Saved filters'}>
          <Button
            variant={active ? 'contained' : 'outlined'}
            aria-label="Saved filters"
            sx={{ minWidth: 0, px: 1.25, flex: '0 0 auto !important' }}
            onClick={(event) => setAnchor(event.currentTarget)}
            aria-haspopup="menu"
            aria-expanded={Boolean(anchor)}
          >
            <BookmarkBorderIcon fontSize="small" />
          </Button>
        </Tooltip>
      ) : (
        <Button
          variant="outlined"
          startIcon={<BookmarkBorderIcon />}
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="menu"
          aria-expanded={Boolean(anchor)}
        >
          {active ? active.name : 'Saved filters'}
        </Button>
      )}
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': 'Saved filters', dense: true } }}>
        {saved.length === 0 ? (
          <MenuItem disabled>
            <ListItemText inset secondary="Set filters, then save them here to come back to them.">
              No saved filters yet
            </ListItemText>
          </MenuItem>
        ) : null}
        {saved.map((s) => (
          <MenuItem
            key={s.name}
            selected={s === active}
            onClick={() => {
              onApply(s.value);
              setAnchor(null);
            }}
          >
            <ListItemIcon>{s === active ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            <ListItemText sx={{ mr: 1 }}>{s.name}</ListItemText>
            <Tooltip title="Remove">
              <IconButton
                size="small"
                edge="end"
                aria-label={`Remove saved filter ${s.name}`}
                onClick={(event) => {
                  event.stopPropagation();
                  setSaved(saved.filter((other) => other.name !== s.name));
                }}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          disabled={!canSave || Boolean(active)}
          onClick={() => {
            setAnchor(null);
            setNaming(true);
          }}
        >
          <ListItemIcon>
            <BookmarkAddOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>Save current filters…</ListItemText>
        </MenuItem>
      </Menu>
      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="xs" aria-labelledby={`${storeKey}-save-filters`}>
        <DialogTitle id={`${storeKey}-save-filters`}>Save current filters</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') save();
            }}
            error={trimmed.length > NAME_MAX}
            helperText={trimmed.length > NAME_MAX ? `At most ${NAME_MAX} characters.` : taken ? 'Replaces the saved filters of this name.' : ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNaming(false)}>Cancel</Button>
          <Button variant="contained" onClick={save} disabled={!trimmed || trimmed.length > NAME_MAX}>
            Save
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
