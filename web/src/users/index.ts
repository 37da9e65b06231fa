import PeopleIcon from '@mui/icons-material/People';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';
import type { UserView } from '@contracts/identity';

/** The users resource, shown in the admin panel's User Management tab. */
export default {
  list: UserList,
  create: UserCreate,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (record: UserView) => record.full_name,
};
