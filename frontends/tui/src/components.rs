//! tui-realm components: each draws one region of the screen from the view model it is handed
//! (`Attribute::Content`, the one shared state) and keeps no answers of its own. The focused
//! component turns what the terminal sent into the engine event it emits (its `on`); the
//! runtime commits that event and pushes the next view model.

use std::marker::PhantomData;
use std::sync::Arc;

use ask_engine::ViewModel;
use ask_engine::project::view::Body;
use tuirealm::command::{Cmd, CmdResult};
use tuirealm::component::{AppComponent, Component};
use tuirealm::event::Event;
use tuirealm::props::{AttrValue, Attribute, PropBound, PropPayload, QueryResult};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::state::State;

use crate::draw;
use crate::layout::Areas;

/// The events a frame asks the flow to record, usually none: facts only the drawing knows
/// (where a clamped scroll position ended up, how wide an editor is), logged so that replay
/// reaches the same state without drawing.
pub type Recorded = Vec<ask_engine::Event>;

/// What a region draws, given the view model and the screen's layout.
pub trait Region {
    fn draw(
        frame: &mut Frame,
        area: Rect,
        view: &ViewModel,
        areas: &Areas,
        config_path: Option<&str>,
    ) -> Recorded;
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
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, _: &Areas, _: Option<&str>) -> Recorded {
        draw::header::render(frame, area, view);
        Vec::new()
    }
}

impl Region for Main {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, areas: &Areas, _: Option<&str>) -> Recorded {
        match (&view.body, &areas.question) {
            (Body::Question(q), Some(parts)) => return draw::question::render(frame, parts, q),
            (Body::Question(_), None) => {}
            (Body::Review(r), _) => {
                let edge = draw::review::render(frame, area, r);
                return edge.map(|edge| ask_engine::Event::SummaryClamped { edge }).into_iter().collect();
            }
        }
        Vec::new()
    }
}

impl Region for Footer {
    fn draw(frame: &mut Frame, area: Rect, view: &ViewModel, _: &Areas, _: Option<&str>) -> Recorded {
        draw::footer::render(frame, area, draw::footer::lines(view, area.width as usize));
        Vec::new()
    }
}

impl Region for Settings {
    fn draw(
        frame: &mut Frame,
        area: Rect,
        view: &ViewModel,
        _: &Areas,
        config_path: Option<&str>,
    ) -> Recorded {
        if let Some(o) = &view.overlay {
            draw::overlay::render(frame, area, o, config_path);
        }
        Vec::new()
    }
}

/// A component drawing region `R` from the last view model pushed to it.
pub struct Pane<R> {
    view: Option<Arc<ViewModel>>,
    areas: Areas,
    /// What the last frame asks to record: the component's state.
    drawn: Recorded,
    config_path: Option<String>,
    region: PhantomData<R>,
}

impl<R> Default for Pane<R> {
    fn default() -> Self {
        Pane {
            view: None,
            areas: Areas::default(),
            drawn: Vec::new(),
            config_path: None,
            region: PhantomData,
        }
    }
}

/// The attribute carrying the config file's path (shown by the settings overlay).
pub const CONFIG_PATH: Attribute = Attribute::Custom("configPath");

impl<R: Region> Component for Pane<R> {
    fn view(&mut self, frame: &mut Frame, area: Rect) {
        self.drawn = match &self.view {
            Some(view) => R::draw(frame, area, view, &self.areas, self.config_path.as_deref()),
            None => Vec::new(),
        };
    }

    fn query<'a>(&'a self, _attr: Attribute) -> Option<QueryResult<'a>> {
        None
    }

    fn attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, value) {
            (Attribute::Content, AttrValue::Payload(PropPayload::Any(any))) => {
                if let Some((view, areas)) = any.as_any().downcast_ref::<(Arc<ViewModel>, Areas)>() {
                    self.view = Some(Arc::clone(view));
                    self.areas = *areas;
                }
            }
            (a, AttrValue::String(path)) if a == CONFIG_PATH => self.config_path = Some(path),
            _ => {}
        }
    }

    fn state(&self) -> State {
        if self.drawn.is_empty() { State::None } else { State::Any(self.drawn.clone().to_any_prop()) }
    }

    fn perform(&mut self, _cmd: Cmd) -> CmdResult {
        CmdResult::NoChange
    }
}

/// A terminal event as crossterm read it, carried to the components as tui-realm's user event.
/// tui-realm's own crossterm adapter drops key repeats and the META and SUPER modifiers, which
/// the engine's keys keep (a held arrow key repeats; `meta+x` is `alt+x`), so the raw event is
/// handed over and converted by [`crate::input`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd)]
pub struct RawInput(pub crossterm::event::Event);

impl<R: Region + 'static> AppComponent<ask_engine::Event, RawInput> for Pane<R> {
    /// The engine event a terminal event stands for; `None` for input the flow does not
    /// record (key releases, mouse, focus changes).
    fn on(&mut self, ev: &Event<RawInput>) -> Option<ask_engine::Event> {
        match ev {
            Event::User(RawInput(raw)) => crate::input::convert(raw),
            _ => None,
        }
    }
}
