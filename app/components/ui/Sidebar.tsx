/** The sidebar of spec §2.3: a greeting, Logout, and exactly the spec's links (from the screens table). */
import { NavLink } from "@remix-run/react";
import { SIDEBAR_LINKS } from "../../lib/screens";

type SidebarProps = { open: boolean; username: string; onLogout: () => void };

export function Sidebar({ open, username, onLogout }: SidebarProps) {
  return (
    <nav id="sidebar" className="sidebar" aria-label="Sidebar" hidden={!open}>
      <p className="sidebar-greeting">
        Hi, <strong>{username}</strong>
      </p>
      <ul>
        {SIDEBAR_LINKS.map((link) => (
          <li key={link.path}>
            <NavLink to={link.path} prefetch="intent">
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
      <button type="button" className="sidebar-logout" onClick={onLogout}>
        Logout
      </button>
    </nav>
  );
}
