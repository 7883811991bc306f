//! tui-realm components: each draws one region of the screen from the view model it is handed
//! (`Attribute::Content`), keeps no answers of its own and emits nothing but redraws.

use std::marker::PhantomData;
use std::sync::Arc;

use ask_engine::ViewModel;
use ask_engine::project::view::Body;
use tuirealm::command::{Cmd, CmdResult};
use tuirealm::component::{AppComponent, Component};
use tuirealm::event::{Event, NoUserEvent};
use tuirealm::props::{AttrValue, Attribute, PropPayload, QueryResult};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::state::State;

use crate::draw;

/// What a region draws, given the view model.
pub trait Region {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, config_path: Option<&str>);
}

/// Title and tab strip.
pub struct Header;
/// The active question or the review tab.
pub struct Main;
/// Warning and key hints.
pub struct Footer;
/// The settings overlay (draws nothing while it is closed).
pub struct Settings;

impl Region for Header {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, _: Option<&str>) {
        draw::header::render(frame, area, view);
    }
}

impl Region for Main {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, _: Option<&str>) {
        match &view.body {
            Body::Question(q) => draw::question::render(frame, area, q),
            Body::Review(r) => draw::review::render(frame, area, r),
        }
    }
}

impl Region for Footer {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, _: Option<&str>) {
        draw::footer::render(frame, area, draw::footer::lines(view, area.width as usize));
    }
}

impl Region for Settings {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, config_path: Option<&str>) {
        if let Some(o) = &view.overlay {
            draw::overlay::render(frame, area, o, config_path);
        }
    }
}

/// A component drawing region `R` from the last view model pushed to it.
pub struct Pane<R> {
    view: Option<Arc<ViewModel>>,
    config_path: Option<String>,
    region: PhantomData<R>,
}

impl<R> Default for Pane<R> {
    fn default() -> Self {
        Pane { view: None, config_path: None, region: PhantomData }
    }
}

/// The attribute carrying the config file's path (shown by the settings overlay).
pub const CONFIG_PATH: Attribute = Attribute::Custom("configPath");

impl<R: Region> Component for Pane<R> {
    fn view(&mut self, frame: &mut Frame, area: Rect) {
        if let Some(view) = &self.view {
            R::draw(frame, area, view, self.config_path.as_deref());
        }
    }

    fn query<'a>(&'a self, _attr: Attribute) -> Option<QueryResult<'a>> {
        None
    }

    fn attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, value) {
            (Attribute::Content, AttrValue::Payload(PropPayload::Any(any))) => {
                if let Some(view) = any.as_any().downcast_ref::<Arc<ViewModel>>() {
                    self.view = Some(Arc::clone(view));
                }
            }
            (a, AttrValue::String(path)) if a == CONFIG_PATH => self.config_path = Some(path),
            _ => {}
        }
    }

    fn state(&self) -> State {
        State::None
    }

    fn perform(&mut self, _cmd: Cmd) -> CmdResult {
        CmdResult::NoChange
    }
}

impl<R: Region + 'static> AppComponent<(), NoUserEvent> for Pane<R> {
    /// Input is read and converted at the terminal edge ([`crate::input`]), not per component.
    fn on(&mut self, _ev: &Event<NoUserEvent>) -> Option<()> {
        None
    }
}
