// The parts of React Router the browser app uses. main.tsx imports this module on its own, between
// React and the app, so the router's code is evaluated in a task of its own (see main.tsx); the
// list keeps that import from pulling in the router's unused exports.
export {
  createBrowserRouter,
  isRouteErrorResponse,
  Link,
  matchRoutes,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useLocation,
  useMatches,
  useNavigate,
  useParams,
  useRouteError,
  useSearchParams,
} from 'react-router-dom';
