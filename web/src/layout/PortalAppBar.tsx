import LockResetIcon from '@mui/icons-material/LockReset';
import { Box, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import { forwardRef } from 'react';
import { AppBar, Logout, TitlePortal, UserMenu, useGetIdentity, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';
import { NotificationsBell } from '../notifications/NotificationsBell';

const ChangePasswordItem = forwardRef<HTMLAnchorElement>(function ChangePasswordItem(props, ref) {
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/change-password" ref={ref} {...props} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <LockResetIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Change Password</ListItemText>
    </MenuItem>
  );
});

function UserName() {
  const { identity } = useGetIdentity();
  if (!identity?.fullName) return null;
  return (
    <Typography
      data-testid="app-bar-user-name"
      variant="body2"
      sx={{ display: { xs: 'none', sm: 'block' }, maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', mr: 0.5 }}
    >
      {identity.fullName}
    </Typography>
  );
}

/** App bar: page title, notifications, the user's name and a menu for Change Password and Logout. */
export function PortalAppBar() {
  return (
    <AppBar
      color="secondary"
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <NotificationsBell />
          <UserName />
        </Box>
      }
      userMenu={
        <UserMenu>
          <ChangePasswordItem />
          <Logout />
        </UserMenu>
      }
    >
      <TitlePortal sx={{ fontSize: { xs: '1rem', sm: '1.15rem' }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} />
    </AppBar>
  );
}
