import LockResetIcon from '@mui/icons-material/LockReset';
import { Box, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { forwardRef } from 'react';
import { AppBar, Logout, TitlePortal, UserMenu, useUserMenu } from 'react-admin';
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

/** App bar: page title, notifications, the user's name and a menu for Change Password and Logout. */
export function PortalAppBar() {
  return (
    <AppBar
      color="secondary"
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <NotificationsBell />
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
