import NotificationsIcon from '@mui/icons-material/Notifications';
import { Badge, Box, Button, CircularProgress, Divider, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Notification } from '@contracts/notifications';
import { dataProvider, type NotificationPage } from '../providers/dataProvider';
import { messageOf } from '../providers/errorMapper';
import { formatDateTime } from '../formatting';

const POLL_MS = 60_000;

/** The bell in the app bar: unread count and the latest notifications (GET /api/notifications). */
export function NotificationsBell() {
  const navigate = useNavigate();
  const [page, setPage] = useState<NotificationPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const load = useCallback(async (background = false) => {
    setLoading(true);
    try {
      setPage(await dataProvider.getNotifications(10, background));
      setError(null);
    } catch (e) {
      setError(messageOf(e, 'Failed to load notifications'));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(true);
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load(true);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const open = async (notification: Notification) => {
    setAnchor(null);
    if (!notification.read_at) {
      try {
        await dataProvider.markNotificationRead(notification.id);
      } catch {
        // The list is reloaded below either way.
      }
    }
    void load();
    if (notification.link) {
      if (/^https?:\/\//.test(notification.link)) window.location.assign(notification.link);
      else navigate(notification.link);
    }
  };

  const readAll = async () => {
    try {
      await dataProvider.markAllNotificationsRead();
    } finally {
      void load();
    }
  };

  const unread = page?.unread ?? 0;
  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
          onClick={(event) => {
            setAnchor(event.currentTarget);
            void load();
          }}
        >
          <Badge badgeContent={unread} color="error" max={99}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: { xs: 'calc(100vw - 32px)', sm: 380 }, maxHeight: 480 } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            Notifications
          </Typography>
          <Button size="small" onClick={readAll} disabled={!unread}>
            Mark all as read
          </Button>
        </Box>
        <Divider />
        {loading && !page ? (
          <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
            <CircularProgress size={24} />
          </Box>
        ) : error ? (
          <Typography sx={{ p: 2 }} color="error" variant="body2">
            {error}
          </Typography>
        ) : !page?.notifications.length ? (
          <Typography sx={{ p: 2 }} color="text.secondary" variant="body2">
            No notifications yet
          </Typography>
        ) : (
          <List dense disablePadding>
            {page.notifications.map((n) => (
              <ListItemButton key={n.id} onClick={() => void open(n)} sx={{ alignItems: 'flex-start', bgcolor: n.read_at ? undefined : 'action.hover' }}>
                <ListItemText
                  primary={n.title}
                  secondary={
                    <>
                      {n.body ? <span style={{ display: 'block', wordBreak: 'break-word' }}>{n.body}</span> : null}
                      <span style={{ display: 'block', fontSize: 12, marginTop: 2 }}>{formatDateTime(n.created_at)}</span>
                    </>
                  }
                  slotProps={{ primary: { sx: { fontWeight: n.read_at ? 400 : 600 } } }}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
