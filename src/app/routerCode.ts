// The parts of React Router the browser app uses. main.tsx imports this module on its own, between
// React and the app, so the router's code is evaluated in a task of its own (see main.tsx); the
// list keeps that import from pulling in the router's unused exports.
export {
  BrowserRouter,
  Link,
  matchRoutes,
  Navigate,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useRoutes,
  useSearchParams,
} from 'react-router-dom';
