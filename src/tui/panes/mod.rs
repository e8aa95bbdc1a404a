//! One module per pane; each renders from `&App` and nothing else. The result tabs' bodies
//! are drawn by the tabs themselves ([`super::tabs`]); the drawing helpers both use are in
//! [`super::text`].

pub mod footer;
pub mod input;
pub mod pattern;
pub mod status;
pub mod tabs;
