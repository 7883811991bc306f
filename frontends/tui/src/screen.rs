//! The screen: mounts the components in a tui-realm application and lays them out.

use std::sync::Arc;

use ask_engine::ViewModel;
use tuirealm::application::Application;
use tuirealm::event::Event as RealmEvent;
use tuirealm::listener::EventListenerCfg;
use tuirealm::props::{AttrValue, Attribute, PropPayload};
use tuirealm::ratatui::Frame;
use tuirealm::state::State;

use crate::components::{CONFIG_PATH, Footer, Header, Main, Pane, RawInput, Settings};
use crate::draw::{self, MIN_HEIGHT, MIN_WIDTH};
use crate::layout::{Areas, layout};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Id {
    Header,
    Main,
    Footer,
    Settings,
}

const IDS: [Id; 4] = [Id::Header, Id::Main, Id::Footer, Id::Settings];

/// The mounted components. Build one per flow and draw every frame through it.
pub struct Screen {
    app: Application<Id, ask_engine::Event, RawInput>,
}

impl Screen {
    /// Mounts the components; `config_path` is shown in the settings overlay.
    pub fn new(config_path: Option<&str>) -> Screen {
        // No ports: input is read at the terminal edge, so no listener thread is started.
        let mut app = Application::init(EventListenerCfg::default());
        let _ = app.mount(Id::Header, Box::new(Pane::<Header>::default()), Vec::new());
        let _ = app.mount(Id::Main, Box::new(Pane::<Main>::default()), Vec::new());
        let _ = app.mount(Id::Footer, Box::new(Pane::<Footer>::default()), Vec::new());
        let _ = app.mount(Id::Settings, Box::new(Pane::<Settings>::default()), Vec::new());
        // The main pane has the focus: terminal input goes to it and comes back as events.
        let _ = app.active(&Id::Main);
        if let Some(path) = config_path {
            let _ = app.attr(&Id::Settings, CONFIG_PATH, AttrValue::String(path.to_owned()));
        }
        Screen { app }
    }

    /// Hands a terminal event to the focused component; returns the engine event it emits.
    /// tui-realm's `tick` would poll its own listener thread, but input is read at the terminal
    /// edge (which also watches for hang-ups and signals), so the event is forwarded here.
    pub fn on(&mut self, raw: crossterm::event::Event) -> Option<ask_engine::Event> {
        let id = *self.app.focus()?;
        self.app.get_component_mut(&id)?.on(&RealmEvent::User(RawInput(raw)))
    }

    /// Draws the whole screen for `view`; returns the event this frame asks the flow to record
    /// (the review summary or a preview drawn clamped to its end), which the runtime commits
    /// and applies like any other.
    pub fn draw(&mut self, frame: &mut Frame, view: &Arc<ViewModel>) -> Vec<ask_engine::Event> {
        let area = frame.area();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            draw::too_small(frame, area);
            return Vec::new();
        }
        let areas = if view.settings_only { Areas::default() } else { layout(area, view) };
        for id in IDS {
            let shared = Box::new((Arc::clone(view), areas));
            let _ = self.app.attr(&id, Attribute::Content, AttrValue::Payload(PropPayload::Any(shared)));
        }
        if view.settings_only {
            self.app.view(&Id::Settings, frame, area);
            return Vec::new();
        }
        self.app.view(&Id::Header, frame, areas.header);
        self.app.view(&Id::Main, frame, areas.body);
        self.app.view(&Id::Footer, frame, areas.footer);
        self.app.view(&Id::Settings, frame, area);
        match self.app.state(&Id::Main) {
            Ok(State::Any(drawn)) => {
                drawn.as_any().downcast_ref::<Vec<ask_engine::Event>>().cloned().unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }
}
